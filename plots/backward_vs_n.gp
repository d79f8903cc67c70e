# plots/backward_vs_n.gp - (7) the backward pass's HBM bytes vs sequence
# length N, log-log: standard (P, dP, dS through HBM) vs flash v1 (Algorithm 4)
# vs flash v2 (FlashAttention-2's order). Counted bytes (the simulator's) are
# symbols, the exact closed forms of lessons/07_backward/traffic.c lines;
# dotted/dashed: Theorem 5's orders 4 (N d + N^2) and 4 N^2 d^2 / M bytes.
# Input: csv = `lesson 7 --version all --sweep n=... --csv` (its sim rows).
W = 1000; H = 640
load dir . '/style.gp'
cols = '"n":"hbm_bytes":"expected_bytes":"theorem5_bytes"'
eval pick('STD', 'sim', 'standard', cols)
eval pick('V1', 'sim', 'v1', cols)
eval pick('V2', 'sim', 'v2', cols)
stats csv using "d" nooutput
D = STATS_max
stats csv using "sram" nooutput
SRAM = STATS_max
stats csv using (column("batch") * column("heads")) nooutput
BH = STATS_max
stats $STD using (log10($1)):(log10($2)) nooutput
s_std = STATS_slope
stats $V1 using (log10($1)):(log10($2)) nooutput
s_v1 = STATS_slope
stats $V2 using (log10($1)):(log10($2)) nooutput
s_v2 = STATS_slope
set title sprintf("Backward pass: HBM traffic vs N  (d = %d, SRAM M = %g KB, %d head%s, fp32; simulator counts)", \
                  D, SRAM / 1024.0, BH, BH > 1 ? "s" : "")
set logscale x 2
stats csv using "n" nooutput
set xrange [STATS_min / 1.2 : STATS_max * 1.2]
set logscale y 10
set format y '10^{%L}'
set xlabel 'sequence length N'
set ylabel 'HBM bytes read + written'
set key top left
plot $STD using 1:3 with lines lw 2 lc rgb c_std title 'standard (reads P; dP, dS in HBM), closed form', \
     $STD using 1:2 with points pt 7 ps 1.4 lc rgb c_std title sprintf('standard, counted: slope %.2f', s_std), \
     $V1 using 1:3 with lines lw 2 lc rgb c_v1 title 'flash v1 (Algorithm 4), closed form', \
     $V1 using 1:2 with points pt 5 ps 1.3 lc rgb c_v1 title sprintf('flash v1, counted: slope %.2f', s_v1), \
     $V2 using 1:3 with lines lw 2 lc rgb c_v2 title 'flash v2 (dQ by atomicAdd), closed form', \
     $V2 using 1:2 with points pt 9 ps 1.5 lc rgb c_v2 title sprintf('flash v2, counted: slope %.2f', s_v2), \
     $STD using 1:4 with lines dt 3 lw 2 lc rgb c_ref title 'Theorem 5, standard: 4 (N d + N^2)', \
     $V1 using 1:4 with lines dt 4 lw 2 lc rgb c_ref title 'Theorem 5, flash: 4 N^2 d^2 / M'
