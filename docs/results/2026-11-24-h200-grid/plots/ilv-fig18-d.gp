set terminal pngcairo size 900,560 font ',10'
set output 'ilv-fig18-d.png'
set title "interleaved, Figure 18: chunk, double" noenhanced
set xlabel 'chunk'
set ylabel 'Gflop/s'
set key outside right top noenhanced
set grid
set datafile missing 'NaN'
plot 'plots/ilv-fig18-d.dat' using 0:2:xtic(1) with linespoints lw 2 title 'n = 8', \
     'plots/ilv-fig18-d.dat' using 0:3:xtic(1) with linespoints lw 2 title 'n = 16', \
     'plots/ilv-fig18-d.dat' using 0:4:xtic(1) with linespoints lw 2 title 'n = 32'
