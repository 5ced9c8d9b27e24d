set terminal svg size 760,460 noenhanced font "DejaVu Sans,12" background rgb "white"
set output
set encoding utf8
set colorsequence podo
set grid lc rgb "#dddddd"
set border lc rgb "#333333"
set title "Isospeed-efficiency scalability psi (ge)"
set xlabel "from one configuration to the next"
set ylabel "psi"
set key top right opaque box lc rgb "#bbbbbb"
set xtics ("C2 to C4" 1, "C4 to C8" 2, "C8 to C16" 3, "C16 to C32" 4)
set xrange [0.5:4.5]
set yrange [0:*]
$series0 << EOD
1 0.306498331803
2 0.240911957122
3 0.183377990565
4 0.146879809366
EOD
plot $series0 using 1:2 with linespoints lw 2 pt 7 ps 0.7 lc 1 title "psi measured"
