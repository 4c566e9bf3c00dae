set terminal pngcairo size 900,560 font ',10'
set output 'vbatched-uniform-s.png'
set title "potrf vbatched, uniform orders, float: Gflop/s against nmax" noenhanced
set xlabel 'nmax'
set ylabel 'Gflop/s'
set key outside right top noenhanced
set grid
set datafile missing 'NaN'
set logscale x 2
set logscale y
plot 'plots/vbatched-uniform-s.dat' using 1:2 with linespoints lw 2 title 'bchol-vb-greedy-cl', \
     'plots/vbatched-uniform-s.dat' using 1:3 with linespoints lw 2 title 'bchol-vb-greedy-ag', \
     'plots/vbatched-uniform-s.dat' using 1:4 with linespoints lw 2 title 'bchol-vb-lazy-cl', \
     'plots/vbatched-uniform-s.dat' using 1:5 with linespoints lw 2 title 'bchol-vb-lazy-ag', \
     'plots/vbatched-uniform-s.dat' using 1:6 with linespoints lw 2 title 'bchol-padded', \
     'plots/vbatched-uniform-s.dat' using 1:7 with linespoints lw 2 title 'bchol-fused', \
     'plots/vbatched-uniform-s.dat' using 1:8 with linespoints lw 2 title 'bchol-separate', \
     'plots/vbatched-uniform-s.dat' using 1:9 with linespoints lw 2 title 'lapack', \
     'plots/vbatched-uniform-s.dat' using 1:10 with linespoints lw 2 title 'torch'
