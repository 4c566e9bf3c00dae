set terminal pngcairo size 900,560 font ',10'
set output 'speedup-s.png'
set title "bchol over the best peer, float (1 = even)" noenhanced
set xlabel 'n (vbatched: nmax)'
set ylabel 'speedup'
set key outside right top noenhanced
set grid
set datafile missing 'NaN'
set logscale x 2
set logscale y
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc 'black'
plot 'plots/speedup-s.dat' using 1:2 with linespoints lw 2 title 'fixed best', \
     'plots/speedup-s.dat' using 1:3 with linespoints lw 2 title 'fixed auto', \
     'plots/speedup-s.dat' using 1:4 with linespoints lw 2 title 'vbatched-uniform default', \
     'plots/speedup-s.dat' using 1:5 with linespoints lw 2 title 'vbatched-gaussian default'
