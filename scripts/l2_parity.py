#!/usr/bin/env python3
"""scripts/l2_parity.py - the simulator's L2 model against the H200's counters.

  scripts/l2_parity.py GPU_DIR SIM_DIR [--cache none|all] [--markdown OUT.md] [--csv OUT.csv] [--card NAME]

--card names the GPU in the text (default H200).

GPU_DIR holds what scripts/gpu/l2.sh brought back (or several such dirs, separated by commas: the
same sweep repeated, each launch's counters then the median of its runs, the first dir's
lessons-runs.txt naming the runs): lessons-<cache>.csv (Nsight
Compute's raw page, one row per launch, the first column the run's index;
--cache none: the program as it runs, all: each kernel on a flushed L2) and
lessons-runs.txt ("<cache> <i> rc=<rc> lesson <args>"). SIM_DIR holds, for
"none" run i, sim-<i>.json: the same lesson command with --mode sim --arch
h200 --json (scripts/l2_sim_runs.sh makes them; an "all" run uses the sim file
of the "none" run with the same command). Kernels are matched in launch order by
name (a GPU run repeats launches for timing; the first unmatched one of the
same name is taken).

Prints, per counter (DRAM read bytes, DRAM write bytes, L2 read sectors),
what Accel-Sim publishes for its counters: launches, Pearson correlation,
mean absolute error (over the H200's mean), and how many launches are within
1 % and within 10 %; then the launches whose DRAM traffic is at least 1 MB against
the issue's bound (10 %), the worst first.
"""
import csv
import json
import math
import os
import statistics
import sys


def ncu_rows(path):
    rows = list(csv.reader(open(path)))
    hdr, out = None, []
    for r in rows:
        if len(r) > 1 and r[1] == "ID":
            hdr = r
            continue
        if hdr is None or len(r) < 2 or not r[1].isdigit():
            continue
        d = dict(zip(hdr, r))
        d["run"] = int(r[0])
        out.append(d)
    return out


def num(d, k):
    v = d.get(k, "")
    try:
        return float(v.replace(",", ""))
    except ValueError:
        return None


def sim_kernels(node, out):
    """Every launch object (a dict with 'name' and 'dram') in document order."""
    if isinstance(node, dict):
        if "name" in node and "dram" in node and "hbm" in node:
            out.append(node)
            return out
        for v in node.values():
            sim_kernels(v, out)
    elif isinstance(node, list):
        for v in node:
            sim_kernels(v, out)
    return out


# the h200 preset's ceilings (sim/launch.c), for launches whose JSON predates the
# time_model field (docs/gpu/l2-run3's, made on the device before it existed):
# the same roofline as sim/timemodel.c
H200 = dict(dram=3.951e12, l2=2.141e13, smem=3.327e13, fp32=5.541e13, launch=2.0e-6, sms=132)


def model_seconds(k, flops):
    tm = k.get("time_model")
    if tm and tm.get("predicted_ms") is not None:
        return tm["predicted_ms"] / 1e3
    blocks = k["grid"][0] * k["grid"][1] * k["grid"][2]
    busy = min(1.0, blocks / H200["sms"])
    warps = (k["block"][0] * k["block"][1] * k["block"][2] + 31) // 32
    fit = min(32, max(1, 2048 // (warps * 32)))
    if k["shared_bytes"]:
        fit = min(fit, (228 << 10) // (k["shared_bytes"] + 1024))
    occ = min(1.0, min(math.ceil(blocks / H200["sms"]), max(fit, 1)) * warps / 64)
    terms = [(k["dram"]["read_bytes"] + k["dram"]["write_bytes"]) / H200["dram"],
             32.0 * (k["l2"]["read_sectors"] + k["l2"]["write_sectors"]) / H200["l2"],
             (k["sram"]["read_bytes"] + k["sram"]["write_bytes"]) / H200["smem"],
             flops / H200["fp32"]]
    m = max(terms)
    return H200["launch"] + (m + 0.25 * (sum(terms) - m)) / busy / occ


def kernel_flops(ks, i):
    """A launch's FLOPs; standard attention's older JSON put both matrix
    products' FLOPs on attn_std_pv: half of them belong to attn_std_scores."""
    k = ks[i]
    if "time_model" in k:
        return k["flops"]
    if k["name"] in ("attn_std_scores", "attn_std_pv"):
        pv = next((x for x in ks[i:] if x["name"] == "attn_std_pv"), k)
        return pv["flops"] / 2
    return k["flops"]


def gpu_hit_pct(g):
    """The chip's L2 hit rate of L1's sectors, as the simulator reports it (a write never
    misses): 1 - lts__t_sectors_srcunit_tex_lookup_miss / (L1's reads + writes), where the
    run measured the lookup misses (session 21); else lts__t_sector_hit_rate.pct, which also
    counts other units' sectors (run 1)."""
    miss = num(g, "lts__t_sectors_srcunit_tex_lookup_miss.sum")
    rd = num(g, "lts__t_sectors_srcunit_tex_op_read.sum")
    wr = num(g, "lts__t_sectors_srcunit_tex_op_write.sum")
    if miss is not None and rd is not None and wr is not None:
        n = rd + wr + (num(g, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum") or 0) + (
            num(g, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum") or 0)
        return 100.0 * (1 - miss / n) if n and miss <= n else None
    return num(g, "lts__t_sector_hit_rate.pct")


def stats(pairs):
    """pairs of (sim, gpu): n, pearson, mean abs rel err, within 1 %, within 10 %"""
    n = len(pairs)
    if n == 0:
        return None
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in pairs)
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    r = sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")

    def rel(x, y):
        return abs(x - y) / y if y else (0.0 if x == 0 else 1.0)

    errs = [rel(x, y) for x, y in pairs]
    # mean absolute error relative to the H200's mean (a launch that moved
    # almost nothing would make a mean of per-launch ratios meaningless)
    nmae = sum(abs(x - y) for x, y in pairs) / sum(ys) if sum(ys) else float("nan")
    return n, r, nmae, sum(e <= 0.01 for e in errs), sum(e <= 0.10 for e in errs)


def gpu_launches(gdirs, cc):
    """Run index -> its launches (ncu rows, in order), from one GPU_DIR, or from several (the
    same sweep repeated) as each metric's median over the dirs, launch by launch; a launch also
    gets "_spread": the least and the most DRAM bytes (read + write) of its runs."""
    per = []
    for gd in gdirs:
        g = {}
        for d in ncu_rows(os.path.join(gd, "lessons-%s.csv" % cc)):
            g.setdefault(d["run"], []).append(d)
        per.append(g)
    if len(per) == 1:
        return per[0]
    out = {}
    for i, first in per[0].items():
        each = [first] + [p.get(i) for p in per[1:]]
        names = [[d["Kernel Name"] for d in ls] if ls else None for ls in each]
        if any(n != names[0] for n in names):
            print("run %d: not the same launches in every GPU_DIR, left out" % i, file=sys.stderr)
            continue
        merged = []
        for j, d in enumerate(first):
            m = dict(d)
            for key in d:
                if "__" not in key:  # ncu's metric names have a double underscore
                    continue
                vals = [num(ls[j], key) for ls in each]
                if None not in vals:
                    m[key] = repr(statistics.median(vals))
            tot = [(num(ls[j], "dram__bytes_read.sum") or 0) + (num(ls[j], "dram__bytes_write.sum") or 0)
                   for ls in each]
            m["_spread"] = (min(tot), max(tot))
            merged.append(m)
        out[i] = merged
    return out


def joined_launches(gdir, sdir, cc):
    """Yields (run index, its lesson command as a list, the run's simulated kernels, the
    kernel's index among them, the kernel, its H200 row) for every launch of GPU_DIR's
    <cc> runs that has a simulator side: the sim file of the "none" run with the same
    command, kernels matched in launch order by name (a GPU run repeats launches for
    timing; the first unmatched one of the same name is taken). Also used by
    scripts/timemodel/fit.py."""
    gdirs = gdir.split(",")
    runs, sim_index = {}, {}  # run index -> its lesson command; command -> the "none" run's index
    for line in open(os.path.join(gdirs[0], "lessons-runs.txt")):
        p = line.split()
        cmd = " ".join(p[3:]).replace("--mode cuda", "").replace("--repeats 0", "").replace(
            "--no-counters", "").split()
        if p[0] == "none":
            sim_index[" ".join(cmd)] = int(p[1])
        if p[0] == cc:
            runs[int(p[1])] = cmd
    gpu = gpu_launches(gdirs, cc)
    for i in sorted(runs):
        f = os.path.join(sdir, "sim-%d.json" % sim_index.get(" ".join(runs[i]), -1))
        if not os.path.exists(f) or i not in gpu:
            continue
        try:
            ks = sim_kernels(json.load(open(f)), [])
        except ValueError:
            print("%s: not JSON (an unfinished run?), skipped" % f, file=sys.stderr)
            continue
        launches, used = gpu[i], set()
        for ki, k in enumerate(ks):
            for j, g in enumerate(launches):
                if j in used or g["Kernel Name"].split("(")[0].split("<")[0].strip() != k["name"]:
                    continue
                used.add(j)
                yield i, runs[i], ks, ki, k, g
                break


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    gdir, sdir = argv[1], argv[2]
    cc = argv[argv.index("--cache") + 1] if "--cache" in argv else "none"
    md = argv[argv.index("--markdown") + 1] if "--markdown" in argv else None
    csv_out = argv[argv.index("--csv") + 1] if "--csv" in argv else None
    card = argv[argv.index("--card") + 1] if "--card" in argv else "H200"
    rows = []
    for i, cmd, ks, ki, k, g in joined_launches(gdir, sdir, cc):
        rows.append({
            "run": " ".join(cmd), "kernel": k["name"],
            "requested": k["hbm"]["read_bytes"] + k["hbm"]["write_bytes"],
            "sim_dram_read": k["dram"]["read_bytes"], "gpu_dram_read": num(g, "dram__bytes_read.sum"),
            "sim_dram_write": k["dram"]["write_bytes"], "gpu_dram_write": num(g, "dram__bytes_write.sum"),
            "sim_dirty_after": k["dram"]["dirty_after_bytes"],
            "sim_l2_read": k["l2"]["read_sectors"],
            "gpu_l2_read": num(g, "lts__t_sectors_srcunit_tex_op_read.sum"),
            "sim_l2_write": k["l2"]["write_sectors"],
            "gpu_l2_write": num(g, "lts__t_sectors_srcunit_tex_op_write.sum"),
            "gpu_time_ns": num(g, "gpu__time_duration.sum"),
            "sim_l2_hit_pct": None if k["l2"].get("hit_rate") is None else 100.0 * k["l2"]["hit_rate"],
            "gpu_l2_hit_pct": gpu_hit_pct(g),
            "sim_time_ns": 1e9 * model_seconds(k, kernel_flops(ks, ki)),
            "sim_complete": int(k["dram"].get("complete", True) is not False),
            "gpu_dram_min": g.get("_spread", (None, None))[0], "gpu_dram_max": g.get("_spread", (None, None))[1],
        })
    out = []
    out.append("| counter | launches | Pearson r | mean abs error / mean | within 1 % | within 10 % |")
    out.append("|---|---|---|---|---|---|")
    for name, s, g in (("DRAM read bytes", "sim_dram_read", "gpu_dram_read"),
                       ("DRAM write bytes", "sim_dram_write", "gpu_dram_write"),
                       ("L2 read sectors (from L1)", "sim_l2_read", "gpu_l2_read"),
                       ("L2 write sectors (from L1)", "sim_l2_write", "gpu_l2_write"),
                       ("L2 sector hit rate (%)", "sim_l2_hit_pct", "gpu_l2_hit_pct"),
                       ("time (ns), all launches", "sim_time_ns", "gpu_time_ns")):
        st = stats([(r[s], r[g]) for r in rows if r.get(g) is not None and r.get(s) is not None])
        if st:
            n, rr, mae, w1, w10 = st
            out.append("| %s | %d | %.4f | %.1f %% | %d | %d |" % (name, n, rr, 100 * mae, w1, w10))
    long = [(r["sim_time_ns"], r["gpu_time_ns"]) for r in rows if (r["gpu_time_ns"] or 0) > 50e3]
    st = stats(long)
    if st:
        n, rr, mae, w1, w10 = st
        w25 = sum(abs(a - b) / b <= 0.25 for a, b in long)
        out.append("| time (ns), launches > 50 us | %d | %.4f | %.1f %% | %d | %d (within 25 %%: %d) |" % (
            n, rr, 100 * mae, w1, w10, w25))
    def err(a, b):
        return (a - b) / b if b else (0.0 if a == 0 else float("inf"))

    dram = [r for r in rows if r["gpu_dram_read"] is not None]  # a run may measure L2 alone
    if not dram:
        out.append("")
        out.append("(no DRAM counters in this run)")
    else:
        big = [r for r in dram if (r["gpu_dram_read"] or 0) + (r["gpu_dram_write"] or 0) >= 1e6]

        out.append("")
        out.append(("Launches moving at least 1 MB of DRAM traffic on the %s (%d), total DRAM bytes (read + write), "
                    "worst first; the issue's bound is 10 %%:") % (card, len(big)))
        out.append("")
        runs_n = len(gdir.split(","))
        spread = runs_n > 1
        out.append("| run | kernel | requested | sim DRAM r / w | " + card + " DRAM r / w | error (r+w) |" +
                   (" %s's %d runs, r+w |" % (card, runs_n) if spread else ""))
        out.append("|---|---|---|---|---|---|" + ("---|" if spread else ""))
        big.sort(key=lambda r: -abs(err(r["sim_dram_read"] + r["sim_dram_write"], r["gpu_dram_read"] + r["gpu_dram_write"])))
        mb = lambda x: "%.2f" % (x / 1e6)
        within = 0
        for r in big:
            e = err(r["sim_dram_read"] + r["sim_dram_write"], r["gpu_dram_read"] + r["gpu_dram_write"])
            within += abs(e) <= 0.10
            out.append("| %s | %s%s | %s MB | %s / %s MB | %s / %s MB | %+.1f %% |" % (
                r["run"], r["kernel"], "" if r["sim_complete"] else " (trace incomplete: a lower bound)", mb(r["requested"]), mb(r["sim_dram_read"]), mb(r["sim_dram_write"]),
                mb(r["gpu_dram_read"]), mb(r["gpu_dram_write"]), 100 * e) +
                       (" %s-%s MB |" % (mb(r["gpu_dram_min"]), mb(r["gpu_dram_max"])) if spread else ""))
        out.append("")
        out.append("%d of %d such launches within 10 %%." % (within, len(big)))
        small = [r for r in dram if r not in big]
        out.append("")
        out.append("The other launches (%d, under 1 MB on the %s; the issue's bound is 15 %%), those outside it:" % (
            len(small), card))
        out.append("")
        out.append("| run | kernel | sim DRAM r / w | " + card + " DRAM r / w | error (r+w) |")
        out.append("|---|---|---|---|---|")
        kb = lambda x: "%.1f" % (x / 1e3)
        within = 0
        for r in small:
            e = err(r["sim_dram_read"] + r["sim_dram_write"], (r["gpu_dram_read"] or 0) + (r["gpu_dram_write"] or 0))
            if abs(e) <= 0.15:
                within += 1
                continue
            out.append("| %s | %s | %s / %s KB | %s / %s KB | %+.1f %% |" % (
                r["run"], r["kernel"], kb(r["sim_dram_read"]), kb(r["sim_dram_write"]), kb(r["gpu_dram_read"] or 0),
                kb(r["gpu_dram_write"] or 0), 100 * e))
        out.append("")
        out.append("%d of %d such launches within 15 %%." % (within, len(small)))
    slow = [r for r in rows if (r["gpu_time_ns"] or 0) > 50e3]
    slow.sort(key=lambda r: -abs(err(r["sim_time_ns"], r["gpu_time_ns"])))
    out.append("")
    out.append(("Launches longer than 50 us on the %s (%d): the time model against gpu__time_duration, worst "
                "first; the issue's bound is 25 %%:") % (card, len(slow)))
    out.append("")
    out.append("| run | kernel | model us | " + card + " us | error |")
    out.append("|---|---|---|---|---|")
    for r in slow:
        out.append("| %s | %s | %.1f | %.1f | %+.1f %% |" % (r["run"], r["kernel"], r["sim_time_ns"] / 1e3,
                                                         r["gpu_time_ns"] / 1e3, 100 * err(r["sim_time_ns"], r["gpu_time_ns"])))
    out.append("")
    out.append("%d of %d such launches within 25 %%." % (sum(abs(err(r["sim_time_ns"], r["gpu_time_ns"])) <= 0.25
                                                          for r in slow), len(slow)))
    text = "\n".join(out)
    print(text)
    if md:
        open(md, "w").write(text + "\n")
    if csv_out and rows:
        with open(csv_out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
