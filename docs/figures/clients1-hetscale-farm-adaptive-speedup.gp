set terminal svg size 760,460 noenhanced font "DejaVu Sans,12" background rgb "white"
set output
set encoding utf8
set colorsequence podo
set grid lc rgb "#dddddd"
set border lc rgb "#333333"
set title "Speed-up against clients (policy adaptive)"
set xlabel "clients"
set ylabel "speed-up"
set key top left opaque box lc rgb "#bbbbbb"
set xrange [0:*]
set yrange [0:*]
$series0 << EOD
1 0.983358373255
2 1.98781924154
4 4.02311936501
8 7.60817418702
16 15.7766034119
EOD
$series1 << EOD
1 1
2 2
4 4
8 8
16 16
EOD
$series2 << EOD
0 0
16 16
EOD
plot $series0 using 1:2 with linespoints lw 2 pt 7 ps 0.7 lc 1 title "measured", \
     $series1 using 1:2 with lines lw 2 lc 2 title "s_max", \
     $series2 using 1:2 with lines lw 1.5 dt 2 lc rgb "#555555" title "linear"
