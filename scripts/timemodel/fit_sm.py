#!/usr/bin/env python3
"""scripts/timemodel/fit_sm.py - fits sim/timemodel.c's constants (P, CPI, L, C, BETA) to the H200.

Run from the repository root:
    python3 scripts/timemodel/fit_sm.py [SIM_DIR] [GPU_DIR] [VAL_DIR] [-v] [--shuffles] [--issue-cap]
--shuffles adds a term the C model does not have yet: A issue slots a warp shuffle (the JSON's
time_model.warp_shuffles, or the kernels' closed forms: shuffles() below), A fitted from 0-8;
--issue-cap keeps P (warp instructions an SM issues a cycle) at 4 or less, the chip's 4
schedulers (session 16: docs/l2-model.md "Registers through __launch_bounds__").
SIM_DIR (default docs/gpu/l2-parity): the simulator's JSON of every sweep command, sim-<i>.json
(scripts/l2_sim_runs.sh), made by a build whose JSON has time_model.work etc. (where the blocks
ran); GPU_DIR (default docs/gpu/l2-run4): the H200's flushed-L2 runs, lessons-all.csv (one ncu
pass per kernel, gpu__time_duration.sum); VAL_DIR (default docs/gpu/timemodel-val): launches with
grids that fill the chip (lesson 4 at --batch 4 --heads 16; scripts/gpu/timemodel.sh), the H200's
lessons-all.csv and the simulator's sim-<i>.json side by side.

The formula is sim/timemodel.c's, term for term (predict() below); the counting-mode JSON has no
shared wavefronts counted, but its time_model.shared_wavefronts holds what counting mode's sample
found (sim/launch.c), which the fit uses; the row "detailed mode" takes them from
docs/gpu/timemodel-fit/wavefronts.json instead (wavefronts per shared byte of the same command
pattern and kernel in detailed mode: the ratio does not move with N,
scripts/timemodel/make_wavefronts.py); "no wavefronts" assumes 128 bytes a wavefront.

Prints: the constants that put the most launches > 50 us within 25 % (ties: least squares of
log(predicted / measured)), fitted on both sets; the tables as l2_parity.py prints them, per set;
the constants fitted on part of the launches and scored on the rest (the sweep alone, scored on
the full grids: the sweep has no launch that saturates an SM's issue, so P is free there; causal
against not; N <= 1024 against larger); the worst launches.
"""
import itertools, json, math, os, sys
sys.path.insert(0, 'scripts')
sys.path.insert(0, 'scripts/timemodel')
import l2_parity as P
from fit import pattern, table  # the session-9 analysis: the command patterns, the table

SMS, WMAX = 132, 64
CLK = 3.327e13 / (128 * SMS)        # the h200 preset's shared ceiling over 128 B a cycle an SM
DRAM, L2, LAUNCH = 3.951e12, 2.141e13, 2.0e-6
HERE = 'docs/gpu/timemodel-fit'


def blocks_per_sm(k):
    """threads and shared memory's limit; a kernel's __launch_bounds__ lower it (load() reads that
    from the JSON's warps)"""
    warps = (k['block'][0] * k['block'][1] * k['block'][2] + 31) // 32
    n = min(32, 2048 // (warps * 32))
    if k['shared_bytes']:
        n = min(n, (228 << 10) // (k['shared_bytes'] + 1024))
    return max(n, 1)


def shuffles(k, cmd, params, blocks):
    """a launch's warp shuffles: the JSON's time_model.warp_shuffles (session 16 on), else the
    kernels' own closed forms, each checked against the simulator's count (lesson 4's defaults:
    flash v1 450560, causal 228800; standard softmax 327680; lesson 3 at 4096 rows: naive 327680,
    safe and online 655360); 0 for kernels that shuffle but have neither (none > 50 us)"""
    tm = k.get('time_model') or {}
    if tm.get('warp_shuffles') is not None:
        return tm['warp_shuffles']
    B, H, N = params.get('batch', 1), params.get('heads', 1), params.get('n', 0)
    if k['name'] == 'attn_std_softmax':  # a block a row: 8 warps, 2 reductions of 2 x 5 rounds
        return B * H * N * 160
    if k['name'] == 'attn_flash_v1':  # a warp a row of each (K tile, Q tile) pair: 2 x 5 rounds
        Br, Bc, causal = params['v1_br'], params['v1_bc'], params['causal']
        return B * H * 10 * sum(N - ((j0 // Br) * Br if causal else 0) for j0 in range(0, N, Bc))
    if k['name'] == 'softmax_naive':
        return blocks * 80
    if k['name'] in ('softmax_safe', 'softmax_online'):
        return blocks * 160
    return 0


def load(sdir, gdir, cc='all'):
    wfr = json.load(open(os.path.join(HERE, 'wavefronts.json')))
    rows = []
    for i, cmd, ks, ki, k, g in P.joined_launches(gdir, sdir, cc):
        tm = k.get('time_model') or {}
        if 'work' not in tm:
            sys.exit('%s/sim-%d.json has no time_model.work: made by an older build' % (sdir, i))
        B = k['grid'][0] * k['grid'][1] * k['grid'][2]
        threads = k['block'][0] * k['block'][1] * k['block'][2]
        sram = k['sram']['read_bytes'] + k['sram']['write_bytes']
        wf = k['sram'].get('wavefronts')
        if wf is None:  # counting mode: the detailed-mode ratio of the same command pattern
            wf = sram * wfr.get(pattern(cmd), {}).get(k['name'], 1 / 128.0)
        else:
            wf += (k['sram'].get('atom_wavefronts') or 0) + (k['sram'].get('async_wavefronts') or 0)
        wf_json = tm.get('shared_wavefronts')  # what the build used: counted, or counting mode's sample
        wpb, fit = (threads + 31) // 32, blocks_per_sm(k)
        if tm.get('blocks_per_sm'):  # the JSON says (session 16 on)
            fit = tm['blocks_per_sm']
        elif tm.get('sm_blocks') and tm.get('warps') and tm['warps'] < min(tm['sm_blocks'], fit) * wpb:
            fit = int(round(tm['warps'] / wpb))  # fewer: the kernel's __launch_bounds__ (sim/kernel.h)
        rows.append(dict(
            run=i, cmd=" ".join(cmd), kernel=k['name'], blocks=B, wpb=wpb, fit=fit,
            n=int(cmd[cmd.index('--n') + 1]) if '--n' in cmd and cmd[1] == '4' else (1024 if cmd[1] == '4' else 0),
            sram=sram, wf=wf, wf_json=sram / 128.0 if wf_json is None else wf_json, hbm=k['hbm']['read_bytes'] + k['hbm']['write_bytes'],
            dram=k['dram']['read_bytes'] + k['dram']['write_bytes'],
            l2=k['l2']['read_sectors'] + k['l2']['write_sectors'], flops=k['flops'] or 0.0,
            l2rd=k['l2']['read_sectors'], hwr=k['hbm']['write_bytes'],
            free=(tm['barriers'] == 0) if tm.get('barriers') is not None else k['name'] in NO_BARRIERS,
            work=tm['work'], sm_work=tm['sm_work'], sm_blocks=tm['sm_blocks'], block_work=tm['block_work'],
            max_sm_blocks=tm.get('max_sm_blocks') or 0,  # absent in JSON before session 13
            shfl=shuffles(k, cmd, json.load(open(os.path.join(sdir, 'sim-%d.json' % i))).get('params', {}), B),
            gwf=tm['global_wavefronts'] if tm.get('global_wavefronts') is not None else
            (k['hbm']['read_bytes'] + k['hbm']['write_bytes']) / 128.0,
            c_ms=tm['predicted_ms'], gpu_s=P.num(g, 'gpu__time_duration.sum') * 1e-9))
    return rows


def predict(r, p, wavefronts='json'):
    """seconds: sim/timemodel.c's formula. p: P, CPI, L (cycles), C (bytes), K (cycles), BETA.
    wavefronts: 'json' (what the build used: counting mode's sample), 'detail' (detailed mode's
    count, or its ratio for the command pattern), 'none' (128 bytes a wavefront)."""
    if r['work'] and r['sm_blocks']:
        nb, share, longest = r['sm_blocks'], r['sm_work'] / r['work'], r['block_work'] / r['work']
        starts = max(nb, r['max_sm_blocks'])
    else:
        nb = math.ceil(r['blocks'] / SMS)
        share, longest = nb / r['blocks'], 1.0 / r['blocks']
        starts = nb
    W = min(min(nb, r['fit']) * r['wpb'], WMAX)
    instr = (r['flops'] / 2 + r['sram'] / 4 + r['hbm'] / 4) / 32 + p.get('A', 0) * r['shfl']
    issue = max(share * instr / min(p['P'], W / p['CPI']), longest * instr / r['wpb'] * p['CPI'])
    # the L1 data pipe: shared wavefronts and, since session 29, global lines (the JSON's
    # time_model.global_wavefronts; older JSON: a coalesced request's, 128 requested bytes a line)
    smem = share * ({'json': r['wf_json'], 'detail': r['wf'], 'none': r['sram'] / 128}[wavefronts] + r['gwf'])
    lat = share * r['hbm'] * p['L'] / (W * 32 * (C_FREE if r['free'] else p['C']))
    l2 = 32.0 * r['l2'] / L2 * CLK
    req = 0.0
    if L2REQ:  # session 30: the L2's requests (sim/timemodel.c); the lessons' stores are coalesced
        st_lines, st_sectors = r['hwr'] / 128.0, r['hwr'] / 32.0
        rd_req = min(max(r['gwf'] - st_lines, 0), r['l2rd'])  # the stored JSON has no load sectors
        req = ((rd_req + st_lines) * 8.1e-12 + st_sectors * 6.9e-12) * CLK
    t = [issue, smem, lat, starts * p['K'], r['dram'] / DRAM * CLK, l2]
    # the requests' term bounds where it is the largest; under another bound the L2 adds its
    # bandwidth term only (sim/timemodel.c)
    m, rest = (req, sum(t) - l2) if req > max(t) else (max(t), sum(t) - max(t))
    return LAUNCH + (m + p['BETA'] * rest) / CLK


GRID = dict(P=[2, 3, 4, 5, 6, 8, 1e9], CPI=[1.5, 2, 2.5, 3, 4],
            L=[400, 500, 600, 800, 1000, 1200, 1500],
            C=[16],  # only L / C enters the formula: C is held at 16 bytes (4 floats) a thread
            K=[0, 100, 200, 300],
            BETA=[0.2, 0.3, 0.35, 0.4, 0.5, 0.7],
            A=[0])  # issue slots a warp shuffle takes: `--shuffles` fits it too (0, 1, 2, 4, 6, 8)


def fit(rows):
    rs = [r for r in rows if r['gpu_s'] > 50e-6]
    best = None
    for vals in itertools.product(*GRID.values()):
        p = dict(zip(GRID, vals))
        e = [predict(r, p) / r['gpu_s'] for r in rs]
        s = (-sum(abs(x - 1) <= 0.25 for x in e), sum(math.log(x) ** 2 for x in e))
        if best is None or s < best[0]:
            best = (s, p)
    return best[1]


L2REQ = '--l2req' in sys.argv  # sim/timemodel.c's L2 request term (session 30)
# A kernel without __syncthreads keeps C_FREE bytes in flight a thread (sim/launch.h SIM_TM_C_FREE,
# session 30); the JSON's time_model.barriers says which, and in older JSON these lesson kernels'
# names (the only ones of the sets without a barrier)
C_FREE = 40.0
NO_BARRIERS = ('scale_v1', 'add_kernel', 'attn_flash_v1_init', 'attn_bwd_v1_init', 'attn_bwd_v2_pre')


def main():
    if '--shuffles' in sys.argv:
        GRID['A'] = [0, 1, 2, 4, 6, 8]
    if '--issue-cap' in sys.argv:  # an SM issues at most 4 warp instructions a cycle
        GRID['P'] = [p for p in GRID['P'] if p <= 4]
    args = [a for a in sys.argv[1:] if not a.startswith('-')]
    sdir = args[0] if args else 'docs/gpu/l2-parity'
    gdir = args[1] if len(args) > 1 else 'docs/gpu/l2-run4'
    vsim = args[2] if len(args) > 2 else 'docs/gpu/timemodel-val'
    sweep = load(sdir, gdir)
    val = load(vsim, 'docs/gpu/timemodel-val') if os.path.isdir(vsim) else []
    for r in val:
        r['set'] = 'val'
    rows = sweep + val
    long = [r for r in rows if r['gpu_s'] > 50e-6]
    print("joined launches: sweep %d, full grids %d; > 50 us: %d and %d" % (
        len(sweep), len(val), sum(r['gpu_s'] > 50e-6 for r in sweep), sum(r['gpu_s'] > 50e-6 for r in val)))
    p = fit(rows)
    print("fitted on every launch: " + ", ".join("%s=%g" % kv for kv in p.items()))
    for what, rs in (("the sweep (docs/gpu/l2-run4)", sweep), ("the full grids (docs/gpu/timemodel-val)", val)):
        for lo, w2 in ((0, "all launches"), (50e-6, "launches > 50 us")):
            xs = [r for r in rs if r['gpu_s'] > lo]
            table("%s, %s" % (what, w2), [
                ("counting mode (sampled wavefronts)", [(predict(r, p), r['gpu_s']) for r in xs]),
                ("detailed mode (counted wavefronts)", [(predict(r, p, 'detail'), r['gpu_s']) for r in xs]),
                ("no wavefronts (SIMTLAB_SAMPLE=0)", [(predict(r, p, 'none'), r['gpu_s']) for r in xs]),
                ("the JSON's predicted_ms (the build's constants)", [(r['c_ms'] / 1e3, r['gpu_s']) for r in xs])])
    splits = (("the sweep only", lambda r: 'set' not in r),
              ("the full grids and the sweep's even runs (not causal)", lambda r: 'set' in r or r['run'] % 2 == 0),
              ("the full grids and the sweep's odd runs (causal)", lambda r: 'set' in r or r['run'] % 2 == 1),
              ("N <= 1024 (and lessons 2, 3, 6)", lambda r: r['n'] <= 1024))
    if '--shuffles' in sys.argv:
        return  # the held-out splits: without the shuffle term
    for what, train in splits:
        q = fit([r for r in rows if train(r)])
        test = [r for r in long if not train(r)]
        print("\nfitted on %s: %s" % (what, ", ".join("%s=%g" % kv for kv in q.items())))
        table("held out: the other launches > 50 us", [("held out", [(predict(r, q), r['gpu_s']) for r in test]),
                                                       ("fitted on all", [(predict(r, p), r['gpu_s']) for r in test])])
    print("\n| set | run | command | kernel | H200 us | model us | error |")
    print("|---|---|---|---|---|---|---|")
    for r in sorted(long, key=lambda r: -abs(predict(r, p) / r['gpu_s'] - 1))[:(None if '-v' in sys.argv else 15)]:
        print("| %s | %d | %s | %s | %.1f | %.1f | %+.1f %% |" % (r.get('set', 'sweep'), r['run'], r['cmd'], r['kernel'],
              r['gpu_s'] * 1e6, predict(r, p) * 1e6, 100 * (predict(r, p) / r['gpu_s'] - 1)))


if __name__ == '__main__':
    main()
