set terminal pngcairo size 900,560 font ',10'
set output 'sweep-tbc-d.png'
set title "fused kernel, tbc sweep, double" noenhanced
set xlabel 'tbc'
set ylabel 'Gflop/s'
set key outside right top noenhanced
set grid
set datafile missing 'NaN'
plot 'plots/sweep-tbc-d.dat' using 0:2:xtic(1) with linespoints lw 2 title 'n = 32', \
     'plots/sweep-tbc-d.dat' using 0:3:xtic(1) with linespoints lw 2 title 'n = 64', \
     'plots/sweep-tbc-d.dat' using 0:4:xtic(1) with linespoints lw 2 title 'n = 128'
