# plots/softmax.gp - (5) softmax HBM accesses per element against the row
# length C: naive 3 (2 loads + 1 store), safe 4 (3 + 1), online 3 (2 + 1),
# Milakov & Gimelshein 2018. Counted = (read + write bytes) / (4 R C) from the
# simulator; the lines are the paper's counts (expected_accesses_per_element).
# Input: csv = `lesson 3 --sweep cols=... --csv` (its sim rows).
W = 1000; H = 560
load dir . '/style.gp'
cols = '"cols":"accesses_per_element":"expected_accesses_per_element"'
eval pick('NAIVE', 'sim', 'softmax_naive', cols)
eval pick('SAFE', 'sim', 'softmax_safe', cols)
eval pick('ONLINE', 'sim', 'softmax_online', cols)
stats csv using "rows" nooutput
R = STATS_max
stats csv using "block" nooutput
TB = STATS_max
set title sprintf("Softmax: HBM accesses per element  (R = %d rows, one block of %d threads per row, fp32; simulator counts)", R, TB)
set logscale x 2
stats csv using "cols" nooutput
set xrange [STATS_min / 1.2 : STATS_max * 1.2]
set xlabel 'row length C (columns)'
set ylabel 'HBM accesses per element: (read + write bytes) / 4 R C'
set yrange [0:5.2]
set ytics 1
set key bottom right
plot $SAFE using 1:3 with lines lw 2 lc rgb c_std title 'safe: paper 4 = 3 loads (max, sum, write) + 1 store', \
     $SAFE using 1:2 with points pt 7 ps 1.5 lc rgb c_std title 'safe, counted', \
     $NAIVE using 1:3 with lines lw 5 lc rgb c_v1 title 'naive: paper 3 = 2 loads + 1 store (overflows for large x)', \
     $NAIVE using 1:2 with points pt 5 ps 1.8 lc rgb c_v1 title 'naive, counted', \
     $ONLINE using 1:3 with lines lw 2 dt 2 lc rgb c_v2 title 'online: paper 3 = 2 loads + 1 store (running max, rescaled sum)', \
     $ONLINE using 1:2 with points pt 9 ps 1.2 lc rgb c_v2 title 'online, counted'
