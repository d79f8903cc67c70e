#!/usr/bin/env python3
"""scripts/l1_parity.py - the L1 rows of issue 15's correlation table from a test_parity log.

  scripts/l1_parity.py PARITY.txt [--markdown]

PARITY.txt: `test_parity --verbose` (tests/test_parity.c) as scripts/gpu/run.sh or
scripts/gpu/h200_check.sh bring it back; each kernel launch it checks prints
"<case>, <kernel>: ld sectors SIM/HW, st sectors SIM/HW, ..." (sim first). Prints, for L1's global
load and store sectors (l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum), the launches,
Pearson r, mean absolute error over the chip's mean, and how many are within 1 % and 10 %, the
same columns as scripts/l2_parity.py.
"""
import re
import sys


def pearson(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else 1.0


def within(s, h, frac):
    return abs(s - h) <= frac * h if h else s == 0


def row(name, pairs):
    sims, hws = [p[0] for p in pairs], [p[1] for p in pairs]
    mae = sum(abs(s - h) for s, h in pairs) / len(pairs) / (sum(hws) / len(hws))
    return "| %s | %d | %.4f | %.1f %% | %d | %d |" % (
        name, len(pairs), pearson(sims, hws), 100 * mae,
        sum(within(s, h, 0.01) for s, h in pairs), sum(within(s, h, 0.10) for s, h in pairs))


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 else 2
    ld, st = [], []
    with open(argv[1]) as f:
        for line in f:
            m = re.search(r"ld sectors (\d+)/(\d+), st sectors (\d+)/(\d+)", line)
            if m:
                a, b, c, d = map(int, m.groups())
                ld.append((a, b))
                st.append((c, d))
    if not ld:
        print("l1_parity.py: no 'ld sectors' lines in %s (a test_parity --verbose log?)" % argv[1],
              file=sys.stderr)
        return 1
    print("| counter | launches | Pearson r | mean abs error / mean | within 1 % | within 10 % |")
    print("|---|---|---|---|---|---|")
    print(row("L1 global load sectors", ld))
    print(row("L1 global store sectors", st))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
