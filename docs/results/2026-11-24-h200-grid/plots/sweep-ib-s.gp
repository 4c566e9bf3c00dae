set terminal pngcairo size 900,560 font ',10'
set output 'sweep-ib-s.png'
set title "fused kernel, ib sweep, float" noenhanced
set xlabel 'ib'
set ylabel 'Gflop/s'
set key outside right top noenhanced
set grid
set datafile missing 'NaN'
plot 'plots/sweep-ib-s.dat' using 0:2:xtic(1) with linespoints lw 2 title 'n = 32', \
     'plots/sweep-ib-s.dat' using 0:3:xtic(1) with linespoints lw 2 title 'n = 64', \
     'plots/sweep-ib-s.dat' using 0:4:xtic(1) with linespoints lw 2 title 'n = 128'
