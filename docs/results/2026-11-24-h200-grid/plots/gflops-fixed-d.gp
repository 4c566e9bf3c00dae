set terminal pngcairo size 900,560 font ',10'
set output 'gflops-fixed-d.png'
set title "potrf, fixed size, double: Gflop/s against n" noenhanced
set xlabel 'n'
set ylabel 'Gflop/s'
set key outside right top noenhanced
set grid
set datafile missing 'NaN'
set logscale x 2
set logscale y
plot 'plots/gflops-fixed-d.dat' using 1:2 with linespoints lw 2 title 'bchol-auto', \
     'plots/gflops-fixed-d.dat' using 1:3 with linespoints lw 2 title 'bchol-fused', \
     'plots/gflops-fixed-d.dat' using 1:4 with linespoints lw 2 title 'bchol-separate', \
     'plots/gflops-fixed-d.dat' using 1:5 with linespoints lw 2 title 'bchol-interleaved', \
     'plots/gflops-fixed-d.dat' using 1:6 with linespoints lw 2 title 'bchol-interleaved-native', \
     'plots/gflops-fixed-d.dat' using 1:7 with linespoints lw 2 title 'lapack', \
     'plots/gflops-fixed-d.dat' using 1:8 with linespoints lw 2 title 'torch'
