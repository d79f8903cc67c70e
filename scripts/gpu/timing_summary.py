"""scripts/gpu/timing_summary.py - one line per (N, version) from run.sh's
timing.txt (the lesson's --json runs): time, TFLOP/s and the check."""
import json, re, sys

text = open(sys.argv[1]).read()
for block in re.split(r"^=== ", text, flags=re.M):
    start = block.find("{")
    if start < 0 or "--json" not in block.split("\n", 1)[0]:
        continue
    try:
        doc, _ = json.JSONDecoder().raw_decode(block[start:])
    except ValueError as e:
        print("unparsed block:", block.split("\n", 1)[0], e)
        continue
    n = doc["params"]["n"]
    for v in (doc.get("cuda") or doc["sim"])["versions"]:
        print("N=%d %-8s %9.3f ms %6.1f TFLOP/s check %s (max abs err %.3g) kernels %s" % (
            n, v["name"], v["time_ms"], v["flops"] / v["time_ms"] / 1e9, v["check"]["pass"] if "check" in v else "?",
            v.get("check", {}).get("max_abs_err", float("nan")), ",".join(k["name"] for k in v["kernels"])))
