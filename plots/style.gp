# plots/style.gp - what every plot shares; loaded first by each plots/*.gp.
# Variables (gnuplot -e "..."): out = output path without extension,
# fmt = 'png' (pngcairo, the default) or 'svg'. Input CSVs are the ones
# `lesson N --sweep ... --csv PATH` writes (lessons/common/sweep.h).
if (!exists("fmt")) fmt = 'png'
if (!exists("out")) out = 'plot'
if (fmt eq 'svg') {
    set terminal svg size W, H dynamic enhanced font 'DejaVu Sans,13' background rgb 'white'
} else {
    set terminal pngcairo size W, H enhanced font 'DejaVu Sans,11' background rgb 'white'
}
set output out . '.' . fmt
set datafile separator comma
set grid lc rgb '#e0e0e0' lw 1
set border lc rgb '#404040'
set key box lc rgb '#c0c0c0' opaque samplen 2.5 spacing 1.15
# one colour per version, the same in every plot
c_std = '#c0392b'; c_v1 = '#e67e22'; c_v2 = '#2471a3'; c_ref = '#7f7f7f'
# eval pick('X', 'sim', 'v1', '"n":"hbm_bytes"') makes the datablock $X of
# those columns from the rows of csv with that backend and version (lines
# then join the version's points, which the CSV interleaves with the others')
pick(name, be, ver, cols) = sprintf("set table $%s separator comma; plot csv using %s with table if (strcol('backend') eq '%s' && strcol('version') eq '%s'); unset table", name, cols, be, ver)
