#!/usr/bin/env python3
"""scripts/timemodel/make_wavefronts.py - builds docs/gpu/timemodel-fit/wavefronts.json: shared
wavefronts per shared byte, per (command pattern, kernel), from the simulator's detailed-mode runs
docs/gpu/timemodel-fit/det-<i>.json and small-<i>.json (the lesson command of run i, cmds.txt, with --mode sim --arch
h200 --detail --json). Run from the repository root. Prints the ratio per run, to show it does not move with N."""
import glob, json, os, re, sys
sys.path.insert(0, 'scripts')
import l2_parity as P
sys.path.insert(0, 'scripts/timemodel')
from fit import pattern
cmds = {int(l.split()[0]): l.split()[1:] for l in open('docs/gpu/timemodel-fit/cmds.txt')}
acc = {}
for f in sorted(glob.glob('docs/gpu/timemodel-fit/det-*.json') + glob.glob('docs/gpu/timemodel-fit/small-*.json')):
    i = int(re.findall(r'(\d+)\.json', f)[0])
    try:
        ks = P.sim_kernels(json.load(open(f)), [])
    except ValueError:
        continue
    pat = pattern(['lesson'] + cmds[i])
    seen = {}
    for k in ks:
        s = k['sram']['read_bytes'] + k['sram']['write_bytes']
        a = acc.setdefault(pat, {}).setdefault(k['name'], [0, 0])
        a[0] += k['sram']['wavefronts']; a[1] += s
        seen[k['name']] = k['sram']['wavefronts'] * 128.0 / s if s else 0
    print(i, pat, ' '.join('%s %.3f' % kv for kv in seen.items()))
out = {p: {k: (w / s if s else 0.0) for k, (w, s) in d.items()} for p, d in acc.items()}
json.dump(out, open('docs/gpu/timemodel-fit/wavefronts.json', 'w'), indent=1)
