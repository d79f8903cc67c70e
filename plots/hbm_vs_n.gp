# plots/hbm_vs_n.gp - (1) HBM bytes vs sequence length N on log-log axes:
# standard vs FlashAttention v1 vs v2. Counted bytes (the simulator's) are
# symbols, the exact closed forms of traffic.c (expected_bytes) are lines;
# dashed: a reference slope N^2 through standard's largest point, and
# Theorem 2's orders 4 (N d + N^2) and 4 N^2 d^2 / M bytes (M in floats).
# Input: csv = `lesson 4 --version all --sweep n=... --csv` (its sim rows).
W = 1000; H = 640
load dir . '/style.gp'
cols = '"n":"hbm_bytes":"expected_bytes":"theorem2_bytes"'
eval pick('STD', 'sim', 'standard', cols)
eval pick('V1', 'sim', 'v1', cols)
eval pick('V2', 'sim', 'v2', cols)
stats csv using "d" nooutput
D = STATS_max
stats csv using "sram" nooutput
SRAM = STATS_max
stats csv using (column("batch") * column("heads")) nooutput
BH = STATS_max
# log-log slopes of the counted bytes, fitted over every point
stats $STD using (log10($1)):(log10($2)) nooutput
s_std = STATS_slope; n_max = 10**STATS_max_x; b_max = 10**STATS_max_y
stats $V1 using (log10($1)):(log10($2)) nooutput
s_v1 = STATS_slope
stats $V2 using (log10($1)):(log10($2)) nooutput
s_v2 = STATS_slope
set title sprintf("HBM traffic vs sequence length N  (d = %d, SRAM M = %g KB, %d head%s, fp32; simulator counts)", \
                  D, SRAM / 1024.0, BH, BH > 1 ? "s" : "")
set logscale x 2
stats csv using "n" nooutput
set xrange [STATS_min / 1.2 : STATS_max * 1.2]
set logscale y 10
set format y '10^{%L}'
set xlabel 'sequence length N'
set ylabel 'HBM bytes read + written'
set key top left
n2(x) = 2 * b_max * (x / n_max)**2 # through twice standard's largest point, so both show
plot $STD using 1:3 with lines lw 2 lc rgb c_std title 'standard, closed form', \
     $STD using 1:2 with points pt 7 ps 1.4 lc rgb c_std title sprintf('standard, counted: slope %.2f', s_std), \
     $V1 using 1:3 with lines lw 2 lc rgb c_v1 title 'flash v1, closed form', \
     $V1 using 1:2 with points pt 5 ps 1.3 lc rgb c_v1 title sprintf('flash v1, counted: slope %.2f', s_v1), \
     $V2 using 1:3 with lines lw 2 lc rgb c_v2 title 'flash v2, closed form', \
     $V2 using 1:2 with points pt 9 ps 1.5 lc rgb c_v2 title sprintf('flash v2, counted: slope %.2f', s_v2), \
     n2(x) with lines dt 2 lw 1.5 lc rgb c_std title 'slope 2 guide: ∝ N^2', \
     $STD using 1:4 with lines dt 3 lw 2 lc rgb c_ref title 'Theorem 2, standard: 4 (N d + N^2)', \
     $V1 using 1:4 with lines dt 4 lw 2 lc rgb c_ref title 'Theorem 2, flash: 4 N^2 d^2 / M'
