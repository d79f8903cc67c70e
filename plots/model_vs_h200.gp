# plots/model_vs_h200.gp - (6) the simulator's predictions against the H200,
# one point per kernel launch, log-log, the diagonal = exact, the band = 10 %
# (DRAM) or 25 % (time), the issue's bounds:
#   left:  predicted DRAM bytes (read + write; the L2 model, sim/l2.c) against
#          dram__bytes_read + write, each kernel on a flushed L2 (ncu
#          --cache-control all, one pass): csv2
#   right: the time model (sim/timemodel.c, counting mode) against
#          gpu__time_duration, each kernel on a flushed L2 (one pass): the sweep
#          (csv2, lesson 4 at 2 heads, lessons 2, 3, 6) and grids that fill the
#          chip (csv3, lesson 4 at 4 x 16 heads, docs/gpu/timemodel-val)
# Input: the CSVs scripts/l2_parity.py --csv writes (docs/gpu/l2-parity-*.csv).
W = 1300; H = 600
load dir . '/style.gp'
set logscale xy 10
set format x '10^{%L}'; set format y '10^{%L}'
set key top left font ',10'
set multiplot layout 1, 2 title "Simulator predictions vs the H200 (lesson kernels, 2026-12-04; docs/l2-model.md)"
set title 'DRAM bytes, each kernel on a flushed L2'
set xlabel 'H200: dram\_\_bytes\_read + write'
set ylabel 'simulator: predicted DRAM bytes'
plot csv2 using (column("gpu_dram_read") + column("gpu_dram_write")):(column("sim_dram_read") + column("sim_dram_write")) \
         with points pt 7 ps 1 lc rgb c_v2 title 'kernel launches', \
     x with lines lc rgb c_ref lw 1.5 title 'exact', \
     1.1 * x with lines dt 2 lc rgb c_ref notitle, 0.9 * x with lines dt 2 lc rgb c_ref title '+-10 %'
set title 'time, each kernel on a flushed L2'
set xlabel 'H200: gpu\_\_time\_duration (ns)'
set ylabel 'simulator: time model (ns)'
plot csv2 using "gpu_time_ns":"sim_time_ns" with points pt 7 ps 1 lc rgb c_std title 'the sweep (2 heads)', \
     csv3 using "gpu_time_ns":"sim_time_ns" with points pt 5 ps 1 lc rgb c_v2 title 'full grids (4 x 16 heads)', \
     x with lines lc rgb c_ref lw 1.5 title 'exact', \
     1.25 * x with lines dt 2 lc rgb c_ref notitle, 0.75 * x with lines dt 2 lc rgb c_ref title '+-25 %'
unset multiplot
