#!/usr/bin/env python3
"""scripts/wlines_table.py - scripts/gpu/wlines_probe.cu on a chip beside the simulator, one
markdown row per buffer size and kind (issue 15, session 21: does L2 keep rewritten lines as long
as read ones?).

    SIMTLAB_L2_COLD=0 ./simtlab run scripts/gpu/wlines_probe.cu --arch sm_90 --json /tmp/wl.json
    python3 scripts/wlines_table.py DIR /tmp/wl.json     (DIR: scripts/gpu/wlines.sh's $OUT/wl)

Per f (A + B as a fraction of the card's L2) and kind (rmw: B read and rewritten; ro: both only
read): the third pass's DRAM read and write MB, then the reads of A alone and of B alone after
three passes (what L2 no longer held of each), chip / simulator."""
import csv
import json
import re
import sys


def main():
    d, sim_path = sys.argv[1], sys.argv[2]
    # ncu's own lines ("==PROF== Profiling ...") can land inside one of the probe's: cut them out
    text = re.sub(r"==(PROF|WARNING)==[^\n]*\n", "", open(d + "/plain.txt").read())
    names = [l.split() for l in text.splitlines() if l.startswith("launch ")]
    rows = list(csv.reader(open(d + "/wl.csv")))
    head = rows[0]
    chip = [dict(zip(head, r)) for r in rows[2:] if len(r) == len(head)]
    sim = json.load(open(sim_path))["kernels"]
    if not (len(names) == len(chip) == len(sim)):
        sys.exit("wlines_table.py: %d launches printed, %d in ncu's CSV, %d in the JSON: they must be "
                 "the same run of the probe" % (len(names), len(chip), len(sim)))
    num = lambda s: float(s.replace(",", "")) / 1e6
    table = {}
    for n, c, s in zip(names, chip, sim):
        _, _, what, f, mb = n
        if what == "flush":
            continue
        got = (num(c["dram__bytes_read.sum"]), num(c["dram__bytes_write.sum"]),
               s["dram"]["read_bytes"] / 1e6, s["dram"]["write_bytes"] / 1e6)
        table.setdefault((f, what.split("-")[0]), {}).setdefault(what, []).append((float(mb), got))
    print("| f | kind | MB (A + B) | pass 3: DRAM read, chip / sim | pass 3: DRAM write, chip / sim |"
          " A after: read, chip / sim | B after: read, chip / sim |")
    print("|---|---|---|---|---|---|---|")
    for (f, kind), t in table.items():
        mb, p3 = t[kind][2]  # the third pass of the run that ends reading A
        a = t[kind + "-then-A"][0][1]
        b = t[kind + "-then-B"][0][1]
        print("| %s | %s | %.1f | %.1f / %.1f | %.1f / %.1f | %.1f / %.1f | %.1f / %.1f |" % (
            f, kind, mb, p3[0], p3[2], p3[1], p3[3], a[0], a[2], b[0], b[2]))


if __name__ == "__main__":
    main()
