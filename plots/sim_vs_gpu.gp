# plots/sim_vs_gpu.gp - (4) simulator vs GPU against N, one panel per version:
# the simulator's 32-byte sectors (detailed mode) beside the GPU's L1 global
# sectors (l1tex__t_sectors_pipe_lsu_mem_global_op_ld + st) and its DRAM
# bytes (dram__bytes_read + write), all in bytes (sectors x 32), with the
# closed form. Sim sectors should equal L1 sectors; DRAM bytes are lower,
# because re-read tiles hit the L2 and the L2 is write-back (DESIGN.md).
# Input: csv = a `lesson 4 --mode compare --sweep n=... --csv` CSV (sim and
# cuda rows); with sim rows only (no GPU here) the GPU series are empty and
# the panels say how to make the CSV.
W = 1400; H = 560
load dir . '/style.gp'
cols = '"n":(32.0 * (column("read_sectors") + column("write_sectors"))):"expected_bytes"'
gcols = '"n":(32.0 * (column("hw_l1_ld_sectors") + column("hw_l1_st_sectors"))):(column("hw_dram_read_bytes") + column("hw_dram_write_bytes"))'
eval pick('S1', 'sim', 'standard', cols)
eval pick('S2', 'sim', 'v1', cols)
eval pick('S3', 'sim', 'v2', cols)
eval pick('G1', 'cuda', 'standard', gcols)
eval pick('G2', 'cuda', 'v1', gcols)
eval pick('G3', 'cuda', 'v2', gcols)
have_gpu = |$G1| + |$G2| + |$G3| > 0
# a version without GPU rows: one NaN row, so its series is empty, not an error
if (|$G1| == 0) { set print $G1; print "NaN,NaN,NaN"; unset print }
if (|$G2| == 0) { set print $G2; print "NaN,NaN,NaN"; unset print }
if (|$G3| == 0) { set print $G3; print "NaN,NaN,NaN"; unset print }
if (have_gpu) {
    set table $DEV
    plot csv using (strcol("device")) with table if (strcol("backend") eq "cuda")
    unset table
    gpu_name = $DEV[1]
} else {
    gpu_name = 'no GPU rows in this CSV'
}
stats csv using "d" nooutput
D = STATS_max
stats csv using (column("batch") * column("heads")) nooutput
BH = STATS_max
set logscale x 2
set logscale y 10
set format y '10^{%L}'
set xlabel 'sequence length N'
stats csv using "n" nooutput
set xrange [STATS_min / 1.2 : STATS_max * 1.2]
set autoscale yfix # the data range, no rounding out to whole decades
set offsets 0, 0, graph 0.08, graph 0.08
set key top left font ',10'
set multiplot layout 1, 3 title sprintf("Simulator vs GPU: global-memory traffic against N  (d = %d, %d head%s, fp32; GPU: %s)", \
               D, BH, BH > 1 ? "s" : "", gpu_name) noenhanced
do for [i=1:3] {
    set title (i == 1 ? 'standard' : i == 2 ? 'flash v1' : 'flash v2')
    set ylabel (i == 1 ? 'bytes (sectors x 32)' : '')
    unset label 1
    if (!have_gpu) {
        set label 1 "no GPU columns in this CSV: on a machine with\nan NVIDIA GPU, lesson 4 --mode compare\n--sweep n=... --csv writes them\n(docs/plots/README.md)" \
            at graph 0.97, 0.25 right front font ',10' tc rgb '#a04000'
    }
    S = sprintf('$S%d', i); G = sprintf('$G%d', i) # datablocks by name
    plot S using 1:3 with lines lw 2 lc rgb c_ref title 'closed form (HBM bytes requested)', \
         S using 1:2 with points pt 6 ps 1.8 lw 2 lc rgb c_v1 title 'simulated sectors x 32', \
         G using 1:2 with linespoints pt 7 ps 0.9 lw 1.5 lc rgb c_v2 title 'GPU L1 sectors x 32', \
         G using 1:3 with linespoints pt 9 ps 1.2 dt 2 lw 1.5 lc rgb c_std title 'GPU DRAM bytes'
}
unset multiplot
