# Maddock et al. 2023, Fig. 4 and Fig. 1 at user level (experiments/canife.mk, R4): left, eps_r per audit
# with its 95% Clopper-Pearson interval against the theoretical eps of one round (delta
# 1e-5 solid, 1/n dashed) for each target eps; right, the running eps_hat of Alg. 2
# (Maddock et al. 2023's rule) against the target eps. Reads dir/eps_{10,30,50}.dat; PNG on stdout.
# gnuplot -e "dir='out/canife/user'" user.gp > eps_r.png
set terminal pngcairo size 1200,480 font ",10" noenhanced
set datafile missing "?"
eps = "10 30 50"
colour(i) = word("#1f77b4 #ff7f0e #2ca02c", i)
file(i) = sprintf("%s/eps_%s.dat", dir, word(eps, i))
set multiplot layout 1,2 title "CANIFE at user level: Fashion-MNIST, 3,000 label-skewed clients, 100 per round"
set xlabel "training round of the audit"
set ylabel "epsilon"
set logscale y
set xrange [-15:295]
set yrange [0.5:100]
set key top left
set title "eps_r per audit (delta 1/n); lines: one round's theoretical eps (solid: delta 1e-5, dashed: 1/n)"
plot for [i=1:3] file(i) using ($1 + 2 * (i - 2)):2:3:4 with yerrorbars pt 7 lc rgb colour(i) \
       title sprintf("eps %s: eps_r, 95%% CI", word(eps, i)), \
     for [i=1:3] file(i) using 1:5 with lines lw 2 lc rgb colour(i) notitle, \
     for [i=1:3] file(i) using 1:6 with lines lw 2 dt 2 lc rgb colour(i) notitle
set title "running eps_hat (Alg. 2, backward covering) against the target eps"
set key bottom right
plot for [i=1:3] file(i) using 1:7 with linespoints pt 7 lc rgb colour(i) title sprintf("eps %s: eps_hat", word(eps, i)), \
     for [i=1:3] (0 + word(eps, i)) with lines dt 2 lc rgb colour(i) notitle
unset multiplot
