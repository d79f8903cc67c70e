#!/usr/bin/env python3
"""scripts/gpu/wmma_table.py CSV - ncu's metrics of scripts/gpu/wmma_probe.cu's pattern kernels as
one line each: kind, memory, ldm, then global load/store requests and sectors, shared load/store
wavefronts and instructions (LDS, STS, LDSM). The kernels ran in wmma_probe's order: kinds 0-9,
each global ldm 16, global ldm 24, shared ldm 16, shared ldm 24."""
import csv
import sys

KINDS = ["a row", "a col", "b row", "b col", "acc f32 ld row", "acc f32 ld col", "acc f16 ld row",
         "acc f32 st row", "acc f32 st col", "acc f16 st row"]
SHORT = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "g_ld_req",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "g_ld_sec",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": "g_st_req",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": "g_st_sec",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "s_ld_wf",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "s_st_wf",
    "smsp__inst_executed_op_shared_ld.sum": "lds",
    "smsp__inst_executed_op_shared_st.sum": "sts",
    "smsp__inst_executed_op_ldsm.sum": "ldsm",
    "smsp__inst_executed_op_global_ld.sum": "ldg",
    "smsp__inst_executed_op_global_st.sum": "stg",
}
rows = {}
names = {}
with open(sys.argv[1], newline="") as f:
    lines = [l for l in f if l.startswith('"')]
for r in csv.DictReader(lines):
    if "pattern_k" not in r.get("Kernel Name", ""):
        continue
    i = int(r["ID"])
    names[i] = r["Kernel Name"]
    rows.setdefault(i, {})[SHORT.get(r["Metric Name"], r["Metric Name"])] = r["Metric Value"].replace(",", "")
cols = list(SHORT.values())
print("%-16s %-6s %3s " % ("kind", "mem", "ldm") + " ".join("%8s" % c for c in cols))
for n, i in enumerate(sorted(rows)):
    kind, rest = divmod(n, 4)
    mem = "shared" if rest >= 2 else "global"
    ldm = 24 if rest % 2 else 16
    print("%-16s %-6s %3d " % (KINDS[kind] if kind < len(KINDS) else "?", mem, ldm) +
          " ".join("%8s" % rows[i].get(c, "-") for c in cols))
