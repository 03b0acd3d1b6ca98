# Nasr et al. 2021, Fig. 1-style bars: the measured eps (Clopper-Pearson at the best threshold, delta
# 1e-5) of each threat model per analytic eps, from the realistic adversary to the worst
# case (Nasr et al. 2021, Table I's order), with the analytic eps of the run as a black line across its
# group. gnuplot -e "data='fig1.dat'; out='fig1.png'" fig1.gp
set terminal pngcairo size 1200,600 font ",10"
set output out
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set yrange [0:*]
set offsets 0, 0, 1, 0
set ylabel "measured eps (95% lower bound)"
set xlabel "analytic eps of the run (delta 1e-5)"
set key top left
set title "DP-SGD on Fashion-MNIST (1,000 images, mlp 784-32-10, q 0.1, 100 steps): Nasr et al. 2021's six threat models"
plot data using 3:xtic(1) title "API (C1/D1)" lc rgb "#1f77b4", \
     '' using 4 title "static poison (C2/D1)" lc rgb "#aec7e8", \
     '' using 5 title "intermediate poison (C2/D2)" lc rgb "#9467bd", \
     '' using 6 title "adaptive poison (C3/D2)" lc rgb "#c5b0d5", \
     '' using 7 title "gradient canary (C4/D3)" lc rgb "#ff7f0e", \
     '' using 8 title "malicious dataset, trained (C5/D3)" lc rgb "#2ca02c", \
     '' using 9 title "malicious dataset, simulated (10^6 trials)" lc rgb "#d62728", \
     '' using ($0 - 0.45):2:(0.9):(0) with vectors nohead lw 3 lc rgb "black" title "analytic eps"
