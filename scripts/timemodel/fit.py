#!/usr/bin/env python3
"""scripts/timemodel/fit.py - a latency-aware time model for the H200, fitted on run 2 (lessons-none.csv).
An analysis (session 9, issue 15), not the model sim/timemodel.c uses: docs/l2-model.md says why.

Run from the repository root:  python3 scripts/timemodel/fit.py [-v]
Joins docs/gpu/l2-run2/lessons-none.csv with docs/gpu/l2-parity/sim-<i>.json exactly as
scripts/l2_parity.py does, reproduces the current model (32 of 80), fits two models and
prints their tables:
  A: only counters the simulator has in counting mode (the committed JSON)
  B: A plus the shared-memory wavefronts of detailed mode (--detail); the committed JSON has
     them null, so they are filled in from docs/gpu/timemodel-fit/wavefronts.json: wavefronts / shared byte per
     (lesson command pattern, kernel), measured by the simulator in detailed mode on the same
     command at small N (the ratio does not change with N: see the report).
"""
import json, math, os, sys
sys.path.insert(0, 'scripts')
import l2_parity as P

SMS, BLOCKS_SM, THREADS_SM, SHARED_SM, CLK = 132, 32, 2048, 228 << 10, 1.98e9
CEIL = dict(dram=3.951e12, l2=2.141e13, smem=3.327e13, fp32=5.541e13, launch=2.0e-6)
HERE = 'docs/gpu/timemodel-fit'  # wavefronts.json, det-<i>.json (scripts/timemodel/make_wavefronts.py)


def blocks_per_sm(k):
    warps = (k['block'][0] * k['block'][1] * k['block'][2] + 31) // 32
    n = min(BLOCKS_SM, THREADS_SM // (warps * 32))
    if k['shared_bytes']:
        n = min(n, SHARED_SM // (k['shared_bytes'] + 1024))
    return max(n, 1)


def load(gdir='docs/gpu/l2-run2', sdir='docs/gpu/l2-parity', cc='none'):
    wfr = json.load(open(os.path.join(HERE, 'wavefronts.json')))
    rows = []
    for i, cmd, ks, ki, k, g in P.joined_launches(gdir, sdir, cc):
        threads = k['block'][0] * k['block'][1] * k['block'][2]
        sram = k['sram']['read_bytes'] + k['sram']['write_bytes']
        wf = k['sram'].get('wavefronts')
        if wf is None:  # counting mode: the detailed-mode ratio of this command pattern
            wf = sram * wfr[pattern(cmd)][k['name']]
        rows.append(dict(
            run=i, cmd=" ".join(cmd), kernel=k['name'],
            blocks=k['grid'][0] * k['grid'][1] * k['grid'][2], threads=threads,
            warps=(threads + 31) // 32, fit=blocks_per_sm(k),
            hbm_r=k['hbm']['read_bytes'], hbm_w=k['hbm']['write_bytes'], sram=sram, wf=wf,
            l2=k['l2']['read_sectors'] + k['l2']['write_sectors'],
            dram=k['dram']['read_bytes'] + k['dram']['write_bytes'],
            flops=P.kernel_flops(ks, ki),
            gpu_s=P.num(g, 'gpu__time_duration.sum') * 1e-9,
            old_s=P.model_seconds(k, P.kernel_flops(ks, ki))))
    return rows


def pattern(cmd):
    """a lesson command without its sizes: lesson 4 --d 64 [--causal], lesson 3, ..."""
    a = list(cmd)
    out = a[:2]
    if '--d' in a:
        out += ['--d', a[a.index('--d') + 1]]
    if '--causal' in a:
        out.append('--causal')
    return " ".join(out)


# ---- the model ---------------------------------------------------------------------------
def predict(r, p, detail):
    """seconds. p: Wn (warps an SM needs to hide latency), L (memory latency, s), C (bytes a
    thread has in flight at most), beta (how much of the non-largest terms adds)."""
    B = r['blocks']
    bmax = math.ceil(B / SMS)                 # blocks on the busiest SM
    W = min(64, min(bmax, r['fit']) * r['warps'])   # its resident warps
    share = bmax / B                          # its share of the grid's work
    eff = min(1.0, W / p['Wn'])               # latency hiding
    ideal = r['sram'] / 128.0                 # wavefronts if 4 bytes a lane, no conflicts
    if detail:
        # conflict wavefronts serialise in the shared pipe whatever the warps: not scaled by eff
        smem_cyc = min(r['wf'], ideal) / eff + max(0.0, r['wf'] - ideal)
    else:
        smem_cyc = ideal / eff
    t_smem = smem_cyc * share / CLK
    t_fp = r['flops'] * share / (CEIL['fp32'] / SMS) / eff
    t_dram = r['dram'] / CEIL['dram']
    t_l2 = 32.0 * r['l2'] / CEIL['l2']
    bpt = r['hbm_r'] / (B * r['threads'])     # global bytes a thread loads
    inflight = W * 32 * min(bpt, p['C'])      # bytes the SM has in flight
    t_lat = r['hbm_r'] * share * p['L'] / inflight if inflight else 0.0
    t = [t_smem, t_fp, t_dram, t_l2, t_lat]
    m = max(t)
    return CEIL['launch'] + m + p['beta'] * (sum(t) - m)


GRID = dict(Wn=[4, 6, 8, 10, 12, 14, 16, 20, 24, 32, 48, 64],
            L=[x * 1e-7 for x in (2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 20)],
            C=[4, 8, 12, 16, 24, 32, 64],
            beta=[0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 1.0])


def fit(rows, detail, count=False):
    """grid search over launches > 50 us: least squares of log(predicted / measured), or
    (count=True) the most launches within 25 %, ties broken by the least squares"""
    rs = [r for r in rows if r['gpu_s'] > 50e-6]
    best = None
    for Wn in GRID['Wn']:
        for L in GRID['L']:
            for C in GRID['C']:
                for beta in GRID['beta']:
                    p = dict(Wn=Wn, L=L, C=C, beta=beta)
                    e = [predict(r, p, detail) / r['gpu_s'] for r in rs]
                    s = sum(math.log(x) ** 2 for x in e)
                    if count:
                        s = (-sum(abs(x - 1) <= 0.25 for x in e), s)
                    if best is None or s < best[0]:
                        best = (s, p)
    return best[1]


# (name, uses wavefronts, fitted for the count within 25 % rather than least squares)
MODELS = (('A', False, False), ('A-count', False, True), ('B', True, False), ('B-count', True, True))


# ---- tables --------------------------------------------------------------------------------
def stats(pairs):
    n = len(pairs)
    xs, ys = [a for a, b in pairs], [b for a, b in pairs]
    mx, my = sum(xs) / n, sum(ys) / n
    r = sum((x - mx) * (y - my) for x, y in pairs) / math.sqrt(
        sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))
    rel = [abs(a - b) / b for a, b in pairs]
    return n, r, 100 * sum(rel) / n, 100 * sorted(rel)[n // 2], sum(e <= 0.10 for e in rel), sum(e <= 0.25 for e in rel)


def table(title, sets):
    print("\n" + title)
    print("| model | launches | Pearson r | mean abs rel err | median abs rel err | within 10 % | within 25 % |")
    print("|---|---|---|---|---|---|---|")
    for name, pairs in sets:
        if pairs:
            n, r, mre, med, w10, w25 = stats(pairs)
            print("| %s | %d | %.4f | %.1f %% | %.1f %% | %d | %d |" % (name, n, r, mre, med, w10, w25))


def main():
    rows = load()
    print("joined launches: %d; > 50 us: %d" % (len(rows), sum(r['gpu_s'] > 50e-6 for r in rows)))
    fits = {}
    for label, detail, count in MODELS:
        fits[label] = fit(rows, detail, count)
        print("model %s, fitted on all runs: %s" % (label, ", ".join("%s=%g" % kv for kv in fits[label].items())))
    for r in rows:
        for label, detail, count in MODELS:
            r[label] = predict(r, fits[label], detail)
    for lo, title in ((0, "All launches"), (50e-6, "Launches > 50 us")):
        rs = [r for r in rows if r['gpu_s'] > lo]
        table("%s (fitted on all runs)" % title, [("current (sim/timemodel.c)", [(r['old_s'], r['gpu_s']) for r in rs])] +
              [(m, [(r[m], r['gpu_s']) for r in rs]) for m, d, c in MODELS])
    # hold-out: fit on half of the runs, evaluate on the other half
    for tr, te, what in ((0, 1, 'even'), (1, 0, 'odd')):
        train = [r for r in rows if r['run'] % 2 == tr]
        test = [r for r in rows if r['run'] % 2 == te]
        sets_all, sets_long = [], []
        for label, detail, count in MODELS:
            p = fit(train, detail, count)
            print("\nmodel %s fitted on %s runs only: %s" % (label, what, ", ".join("%s=%g" % kv for kv in p.items())))
            sets_all.append(("%s, held out" % label, [(predict(r, p, detail), r['gpu_s']) for r in test]))
            sets_long.append(("%s, held out" % label, [(predict(r, p, detail), r['gpu_s']) for r in test if r['gpu_s'] > 50e-6]))
        table("Held out (%s runs, fitted on the %s runs): all launches" % ('odd' if tr == 0 else 'even', what),
              [("current", [(r['old_s'], r['gpu_s']) for r in test])] + sets_all)
        table("Held out (%s runs, fitted on the %s runs): launches > 50 us" % ('odd' if tr == 0 else 'even', what),
              [("current", [(r['old_s'], r['gpu_s']) for r in test if r['gpu_s'] > 50e-6])] + sets_long)
    for m, d, c in MODELS:
        long = sorted((r for r in rows if r['gpu_s'] > 50e-6), key=lambda r: -abs(r[m] / r['gpu_s'] - 1))
        print("\nModel %s: the 10 worst launches > 50 us" % m)
        print("| run | command | kernel | H200 us | model us | error | current model error |")
        print("|---|---|---|---|---|---|---|")
        for r in long[:10]:
            print("| %d | %s | %s | %.1f | %.1f | %+.1f %% | %+.1f %% |" % (r['run'], r['cmd'], r['kernel'], r['gpu_s'] * 1e6,
                  r[m] * 1e6, 100 * (r[m] / r['gpu_s'] - 1), 100 * (r['old_s'] / r['gpu_s'] - 1)))
    if '-v' in sys.argv:
        print("\n| run | kernel | W | H200 us | current | " + " | ".join(m for m, d, c in MODELS) + " |")
        for r in rows:
            print("| %d | %s | %d | %.1f | %+.0f %% | " % (
                r['run'], r['kernel'], min(64, min(math.ceil(r['blocks'] / SMS), r['fit']) * r['warps']), r['gpu_s'] * 1e6,
                100 * (r['old_s'] / r['gpu_s'] - 1)) + " | ".join("%+.0f %%" % (100 * (r[m] / r['gpu_s'] - 1)) for m, d, c in MODELS) + " |")


if __name__ == '__main__':
    main()
