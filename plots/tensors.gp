# plots/tensors.gp - (3) per-tensor HBM bytes for one shape: a stacked bar per
# version, one segment per tensor (Q, K, V, S, P, O, l, m), solid = read,
# hatched = written; left in MB, right as shares of each version's bytes.
# Standard's S and P, N^2 each and read back, are most of its traffic; v1's
# is the Tc passes over O (read and written) and Q; v2's is K and V, read once
# per block of query rows.
# Input: csv = `lesson 4 --version all --csv` at one shape (its sim rows).
W = 1100; H = 600
load dir . '/style.gp'
stats csv using "n" nooutput
N = STATS_max
stats csv using "d" nooutput
D = STATS_max
stats csv using "sram" nooutput
SRAM = STATS_max
stats csv using (column("batch") * column("heads")) nooutput
BH = STATS_max
T = "q k v s p o l m"
NAMES = "Q K V S P O l m"
tcol = '#4e79a7 #f28e2b #59a14f #e15759 #b07aa1 #76b7b2 #edc948 #9c755f'
seg(j) = word(T, (j + 1) / 2) . (j % 2 ? "_read_bytes" : "_write_bytes")
set datafile columnheaders # histograms read the first line as data otherwise
set style data histograms
set style histogram rowstacked
set boxwidth 0.6 relative
set style fill border rgb '#303030'
set key outside right top vertical
set grid noxtics ytics
set multiplot layout 1, 2 title sprintf("HBM bytes per tensor  (N = %d, d = %d, SRAM M = %g KB, %d head%s, fp32; simulator counts; hatched = written)", \
               N, D, SRAM / 1024.0, BH, BH > 1 ? "s" : "")
set ylabel 'HBM MB read + written'
set yrange [0:*]
unset key
set offsets 0, 0, graph 0.08, 0
plot for [j=1:16] csv using (strcol("backend") eq "sim" ? column(seg(j)) / 1e6 : 1/0):xtic(strcol("version")) \
         fs pattern (j % 2 ? 3 : 4) lc rgb word(tcol, (j + 1) / 2) notitle, \
     '' using 0:(column("hbm_bytes") / 1e6):(sprintf("%.2f MB", column("hbm_bytes") / 1e6)) with labels offset 0, 0.8 notitle
set ylabel 'share of the version''s HBM bytes (%)'
set yrange [0:100]
set offsets 0, 0, 0, 0
set key outside right top vertical title 'tensor'
plot for [j=1:16] csv using (strcol("backend") eq "sim" ? 100.0 * column(seg(j)) / column("hbm_bytes") : 1/0):xtic(strcol("version")) \
         fs pattern (j % 2 ? 3 : 4) lc rgb word(tcol, (j + 1) / 2) title (j % 2 ? word(NAMES, (j + 1) / 2) : "")
unset multiplot
