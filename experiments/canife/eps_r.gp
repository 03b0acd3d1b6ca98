# Maddock et al. 2023, Fig. 4 style: eps_r per audit round (seed 1) with its 95% Clopper-Pearson interval,
# against the theoretical eps of one round without amplification at delta 1e-5 and at 1/n.
# A separated audit (eps_r = inf) shows its 95% lower bound as a triangle.
# gnuplot -e "data='eps_r.dat'; out='eps_r.png'" eps_r.gp
set terminal pngcairo size 900,520 font ",10"
set output out
set datafile missing "?"
set xlabel "training round of the audit"
set ylabel "epsilon"
set logscale y
set key at graph 0.98, graph 0.66
set xrange [-20:*]
set offsets 0, 20, 0, 0
set title "CANIFE on Fashion-MNIST (Andrew et al. 2024, Sec. 5.4's run): per-round eps_r"
plot data using 1:2:3:4 with yerrorbars pt 7 lc rgb "#1f77b4" title "eps_r (delta 1/n), 95% CI", \
     '' using 1:5 with lines lw 2 lc rgb "black" title "theoretical, one round, delta 1e-5", \
     '' using 1:7 with points pt 9 ps 1.5 lc rgb "#d62728" title "separated (eps_r = inf): its 95% lower bound", \
     '' using 1:6 with lines lw 2 dt 2 lc rgb "black" title "theoretical, one round, delta 1/n"
