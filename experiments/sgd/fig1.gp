# 004 Fig. 1-style bars: the measured eps (Clopper-Pearson at the best threshold, delta
# 1e-5) of each threat model per analytic eps, with the analytic eps of the run as a
# black marker. gnuplot -e "data='fig1.dat'; out='fig1.png'" fig1.gp
set terminal pngcairo size 1000,560 font ",10"
set output out
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:*]
set offsets 0, 0, 1, 0
set ylabel "measured eps (95% lower bound)"
set xlabel "analytic eps of the run (delta 1e-5)"
set key top left
set title "DP-SGD on Fashion-MNIST (1,000 images, mlp 784-32-10, q 0.1, 100 steps): 004's threat models"
plot data using 3:xtic(1) title "API (final model loss)" lc rgb "#1f77b4", \
     '' using 4 title "gradient canary (all iterates)" lc rgb "#ff7f0e", \
     '' using 5 title "malicious dataset (trained)" lc rgb "#2ca02c", \
     '' using 6 title "malicious dataset (simulated, 10^6 trials)" lc rgb "#d62728", \
     '' using 0:2 with points pt 7 ps 1.5 lc rgb "black" title "analytic eps"
