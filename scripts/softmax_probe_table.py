#!/usr/bin/env python3
"""scripts/softmax_probe_table.py - the H200's figures for scripts/gpu/softmax_probe.cu beside
the simulator's, one markdown row a variant (issue 15; docs/l2-model.md "The L1 of an SM").

    ./simtlab run scripts/gpu/softmax_probe.cu --arch h200 --json /tmp/sp.json
    python3 scripts/softmax_probe_table.py docs/gpu/softmax-probe /tmp/sp.json

The JSON must hold every variant in order (the probe run without arguments). Columns: the
share of requested reads that L1 passed to L2 (chip: lts__t_sectors_srcunit_tex_op_read), DRAM
read MB (chip: the median of its runs, REPS of softmax_probe.sh, and their range), the error, DRAM write MB. Then the
spread of the chip's DRAM bytes over three identical runs of lesson 4's flash v1 (v1-*.csv)."""
import csv
import glob
import json
import re
import statistics
import sys


def raw_rows(path):
    rows = list(csv.reader(open(path)))
    head = rows[0]
    return [dict(zip(head, r)) for r in rows[2:] if len(r) == len(head)]


def num(s):
    return float(s.replace(",", ""))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: softmax_probe_table.py <chip dir> <simulator json>")
    d, sim_path = sys.argv[1], sys.argv[2]
    names = {}
    for line in open(d + "/probe-plain.txt"):
        m = re.match(r"launch (\d+) variant (\d+) (\S+)", line)
        if m:
            names[int(m.group(1))] = m.group(3)
    dram = {}
    reps = sorted(glob.glob(f"{d}/probe-dram-*.csv"))
    if not reps:
        sys.exit(f"{d}: no probe-dram-<r>.csv")
    for path in reps:
        for x in raw_rows(path):
            dram.setdefault(int(x["ID"]), []).append(
                (num(x["dram__bytes_read.sum"]) / 1e6, num(x["dram__bytes_write.sum"]) / 1e6))
    l2 = {int(x["ID"]): num(x["lts__t_sectors_srcunit_tex_op_read.sum"]) * 32 / 1e6
          for x in raw_rows(d + "/probe-l2.csv")}
    sim = json.load(open(sim_path))["kernels"]
    if len(sim) != len(names):
        sys.exit(f"{sim_path}: {len(sim)} launches, the chip's run has {len(names)}: run every variant")
    print("| variant | L1 passed, sim | chip | DRAM read MB, sim | chip (range) | error | DRAM write MB, sim | chip |")
    print("|---|---|---|---|---|---|---|---|")
    errs = []
    for i, k in enumerate(sim):
        reads = [a[0] for a in dram[i]]
        cr, cw = statistics.median(reads), statistics.median(a[1] for a in dram[i])
        req = k["hbm"]["read_bytes"] / 1e6
        mr, mw = k["dram"]["read_bytes"] / 1e6, k["dram"]["write_bytes"] / 1e6
        ml2 = k["l2"]["read_sectors"] * 32 / 1e6
        errs.append(abs(mr - cr) / cr)
        print(f"| {i} {names[i]} | {ml2 / req:.2f} | {l2[i] / req:.2f} | {mr:.1f} | {cr:.1f} "
              f"({min(reads):.1f}-{max(reads):.1f}) | {100 * (mr - cr) / cr:+.1f} % | {mw:.1f} | {cw:.1f} |")
    print(f"\nDRAM read, mean absolute error over the chip's median: {100 * sum(errs) / len(errs):.1f} %")
    try:
        runs = [line.split(" ", 3)[3].strip() for line in open(d + "/v1-runs.txt")]
    except OSError:
        return
    shapes = sorted({int(line.split()[0]) for line in open(d + "/v1-runs.txt")})
    print("\n| lesson 4 --version v1 | DRAM read MB, each run | DRAM write MB, each run | read + write: spread |")
    print("|---|---|---|---|")
    for s in shapes:
        rd, wr = [], []
        for path in sorted(glob.glob(f"{d}/v1-{s}-*.csv")):
            for x in raw_rows(path):
                if x["Kernel Name"].startswith("attn_flash_v1("):
                    rd.append(num(x["dram__bytes_read.sum"]) / 1e6)
                    wr.append(num(x["dram__bytes_write.sum"]) / 1e6)
        tot = [a + b for a, b in zip(rd, wr)]
        med = statistics.median(tot)
        shape = next(r for r, line in zip(runs, open(d + "/v1-runs.txt")) if int(line.split()[0]) == s)
        print(f"| {shape.replace('lesson 4 ', '').replace(' --version v1', '')} | "
              f"{', '.join(f'{v:.3f}' for v in rd)} | {', '.join(f'{v:.3f}' for v in wr)} | "
              f"{min(tot):.2f}-{max(tot):.2f} ({100 * (min(tot) - med) / med:+.0f} / {100 * (max(tot) - med) / med:+.0f} % of the median) |")


if __name__ == "__main__":
    main()
