# plots/lesson5_gantt.gp - lesson 5's stream timelines as a Gantt chart: one
# row per stream of each run (the model with 1 stream and with S streams,
# and, from --mode cuda or compare, the GPU's measured runs), one bar per op
# from its start to its end: H2D copies, kernels, D2H copies.
# Input: csv = `lesson 5 --gantt FILE` (columns source, run, row, row_label,
# stream, op, kind, chunk, start_ms, end_ms, ...). Not part of the plots
# target; render it by hand:
#   build/lesson 5 --gantt plots/out/lesson5_gantt.csv
#   gnuplot -e "dir='plots'; csv='plots/out/lesson5_gantt.csv'; out='plots/out/lesson5_gantt'" plots/lesson5_gantt.gp
W = 1100; H = 520
if (!exists("dir")) dir = 'plots'
load dir . '/style.gp'
stats csv using "row" nooutput
R = STATS_max
stats csv using "end_ms" nooutput
T = STATS_max
set title "Lesson 5: copies and kernels on CUDA streams (bars: op start to end)"
set xlabel 'time (ms)'
set xrange [0 : T * 1.02]
set yrange [R + 0.7 : -0.7]
set ytics scale 0
set grid noytics
set key outside right top vertical
c_h2d = '#2471a3'; c_k = '#e67e22'; c_d2h = '#27ae60'
bar(k) = (strcol("kind") eq k) ? column("row") : NaN
plot csv using (0.5 * (column("start_ms") + column("end_ms"))):(bar("H2D")):"start_ms":"end_ms":(bar("H2D") - 0.35):(bar("H2D") + 0.35) \
         with boxxyerror fs solid 0.8 border lc rgb '#303030' lc rgb c_h2d title 'H2D copy', \
     csv using (0.5 * (column("start_ms") + column("end_ms"))):(bar("kernel")):"start_ms":"end_ms":(bar("kernel") - 0.35):(bar("kernel") + 0.35) \
         with boxxyerror fs solid 0.8 border lc rgb '#303030' lc rgb c_k title 'kernel', \
     csv using (0.5 * (column("start_ms") + column("end_ms"))):(bar("D2H")):"start_ms":"end_ms":(bar("D2H") - 0.35):(bar("D2H") + 0.35) \
         with boxxyerror fs solid 0.8 border lc rgb '#303030' lc rgb c_d2h title 'D2H copy', \
     csv using (0):"row":ytic(strcol("row_label")) with points pt -1 notitle
