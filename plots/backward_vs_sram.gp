# plots/backward_vs_sram.gp - (8) the backward pass's HBM bytes vs SRAM size M
# at fixed N and d, log-log. Algorithm 4's tiles follow M (Bc = ceil(M/4d)),
# so flash v1's inner passes over Q, O, dO and dQ fall as 1/M (Theorem 5's
# 4 N^2 d^2 / M, dotted); v2's 64-key tile is set by registers, not M, and
# standard's P, dP, dS do not depend on M at all.
# Input: csv = `lesson 7 --version all --sweep sram=... --csv` (its sim rows).
W = 1000; H = 640
load dir . '/style.gp'
cols = '(column("sram")/1024.0):"hbm_bytes":"expected_bytes":"theorem5_bytes"'
eval pick('STD', 'sim', 'standard', cols)
eval pick('V1', 'sim', 'v1', cols)
eval pick('V2', 'sim', 'v2', cols)
stats csv using "n" nooutput
N = STATS_max
stats csv using "d" nooutput
D = STATS_max
stats csv using (column("batch") * column("heads")) nooutput
BH = STATS_max
stats $V1 using (log10($1)):(log10($2)) nooutput
s_v1 = STATS_slope
set title sprintf("Backward pass: HBM traffic vs SRAM size M  (N = %d, d = %d, %d head%s, fp32; simulator counts)", \
                  N, D, BH, BH > 1 ? "s" : "")
set logscale x 2
stats csv using (column("sram") / 1024.0) nooutput
set xrange [STATS_min / 1.15 : STATS_max * 1.15]
set logscale y 10
set format y '10^{%L}'
set xlabel 'SRAM size M (KB of fp32 tiles; the paper counts M = bytes / 4 elements)'
set ylabel 'HBM bytes read + written'
set key bottom left
plot $STD using 1:3 with lines lw 2 lc rgb c_std title 'standard, closed form (M-independent)', \
     $STD using 1:2 with points pt 7 ps 1.4 lc rgb c_std title 'standard, counted', \
     $V1 using 1:3 with lines lw 2 lc rgb c_v1 title 'flash v1, closed form', \
     $V1 using 1:2 with points pt 5 ps 1.3 lc rgb c_v1 title sprintf('flash v1, counted: slope %.2f', s_v1), \
     $V2 using 1:3 with lines lw 2 lc rgb c_v2 title 'flash v2, closed form (its 64-key tile, not M)', \
     $V2 using 1:2 with points pt 9 ps 1.5 lc rgb c_v2 title 'flash v2, counted', \
     $V1 using 1:4 with lines dt 4 lw 2 lc rgb c_ref title 'Theorem 5: 4 N^2 d^2 / M, slope -1'
