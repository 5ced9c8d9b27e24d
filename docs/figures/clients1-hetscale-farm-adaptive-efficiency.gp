set terminal svg size 760,460 noenhanced font "DejaVu Sans,12" background rgb "white"
set output
set encoding utf8
set colorsequence podo
set grid lc rgb "#dddddd"
set border lc rgb "#333333"
set title "Efficiency against clients (policy adaptive)"
set xlabel "clients"
set ylabel "efficiency"
set key bottom left opaque box lc rgb "#bbbbbb"
set xrange [0:*]
set yrange [0:1.05]
$series0 << EOD
1 0.983358373255
2 0.993909620771
4 1.00577984125
8 0.951021773378
16 0.986037713246
EOD
plot $series0 using 1:2 with linespoints lw 2 pt 7 ps 0.7 lc 1 title "s / s_max"
