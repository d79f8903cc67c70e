#!/usr/bin/env python3
"""scripts/sims_splice.py - replaces one lesson 4 version's launches in the committed simulator JSON
(docs/gpu/l2-parity/sim-<i>.json, docs/gpu/timemodel-val/sim-<i>.json) with those of a run of that
version alone (`lesson 4 ... --version v2 --mode sim --arch h200 --json`, with SIMTLAB_L2_COLD=1 as
scripts/gpu/all_sims.sh runs it), so that a change that touches one version's kernels only is
re-simulated without the hours the others take on a 2-core machine. Every launch starts on an empty
L2 (cold mode), so a version's launches depend on the others' only through where the buffers land:
the L2 sets and L1 slots follow the addresses. A run of standard or v1 alone places its buffers as
the full run does (Q, K, V, O, l, m, then S and P, come first); v2's partial results come after S
and P, so run v2 as `--version standard,v2` (session 17: v2 alone moved flash v2's DRAM writes by up
to 4 % and its L2 sectors by 0.015 %).

    python3 scripts/sims_splice.py OLD_DIR NEW_DIR [--prefix attn_flash_v2] [--check]

For each NEW_DIR/sim-<i>.json: the version entry of OLD_DIR/sim-<i>.json whose kernels start with
the prefix is replaced by the new run's, and so are those kernels in the top-level list (in place,
order kept). The two runs must have the same parameters but the version. Numbers are written as
the lessons write them (floats %.9g), so the other versions' lines stay as they were.
--check only prints, per file, the launches that differ (name, field, old, new).
"""
import glob, json, os, re, sys


def dumps(obj):
    """json.dumps, floats as the lessons print them (%.9g): a float becomes a tagged string
    first, then its tag is replaced by the bare number"""
    def tag(x):
        if isinstance(x, float):
            return '\x00%.9g\x00' % x
        if isinstance(x, dict):
            return {k: tag(v) for k, v in x.items()}
        if isinstance(x, list):
            return [tag(v) for v in x]
        return x
    return re.sub(r'"\\u0000([^"\\]*)\\u0000"', r'\1', json.dumps(tag(obj), indent=2, ensure_ascii=False))


def is_ours(name, prefix):
    return name.startswith(prefix)


def diff(a, b, path=''):
    out = []
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in ('time_ms',):
                continue
            out += diff(a.get(k), b.get(k), path + '.' + k)
    elif a != b:
        out.append((path, a, b))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    prefix = sys.argv[sys.argv.index('--prefix') + 1] if '--prefix' in sys.argv else 'attn_flash_v2'
    if '--prefix' in sys.argv:
        args.remove(prefix)
    old_dir, new_dir = args
    for nf in sorted(glob.glob(os.path.join(new_dir, 'sim-*.json'))):
        of = os.path.join(old_dir, os.path.basename(nf))
        if not os.path.exists(of):
            sys.exit('%s: no %s to splice into' % (nf, of))
        old, new = json.load(open(of)), json.load(open(nf))
        # the plans (v1_br, v2_splits, ...) of a version either run left out are not compared: a run
        # leaves them at 0 (v2_whole is 0 in some plans that ran, so the value cannot say)
        ran = [{v['name'] for v in run['sim']['versions']} for run in (old, new)]
        unplanned = {k for k in set(old['params']) | set(new['params'])
                     if k[:3] in ('v1_', 'v2_') and any(k[:2] not in r for r in ran)}
        po = {k: v for k, v in old['params'].items() if k != 'version' and k not in unplanned}
        pn = {k: v for k, v in new['params'].items() if k != 'version' and k not in unplanned}
        if po != pn:
            sys.exit('%s and %s: not the same run: %s against %s' % (of, nf, po, pn))
        nk = [k for k in new['kernels'] if is_ours(k['name'], prefix)]
        nv = [v for v in new['sim']['versions'] if any(is_ours(k['name'], prefix) for k in v['kernels'])]
        ov = [i for i, v in enumerate(old['sim']['versions']) if any(is_ours(k['name'], prefix) for k in v['kernels'])]
        if len(nv) != 1 or len(ov) != 1:
            sys.exit('%s: want one version of %s* in each file (old %d, new %d)' % (nf, prefix, len(ov), len(nv)))
        ok = [k for k in old['kernels'] if is_ours(k['name'], prefix)]
        if [k['name'] for k in ok] != [k['name'] for k in nk]:
            sys.exit('%s: the launches differ: %s against %s' % (nf, [k['name'] for k in ok], [k['name'] for k in nk]))
        if '--check' in sys.argv:
            for a, b in zip(ok, nk):
                for p, x, y in diff(a, b):
                    print('%s %s%s: %s -> %s' % (os.path.basename(nf), a['name'], p, x, y))
            continue
        old['sim']['versions'][ov[0]] = nv[0]
        it = iter(nk)
        old['kernels'] = [next(it) if is_ours(k['name'], prefix) else k for k in old['kernels']]
        with open(of, 'w') as f:
            f.write(dumps(old) + '\n')
        print('%s: %d launches of %s* replaced' % (of, len(nk), prefix))


if __name__ == '__main__':
    main()
