# Andrew et al. 2024, Fig. 2 style: eps_est-final (bars) and eps_lo-final (ticks) against canary
# repetitions, one panel per noise multiplier. Inputs: table, out, noises (-e).
set terminal pngcairo size 1400,400 font ",10" noenhanced
set output out
n = words(noises)
set multiplot layout 1, n title "Fashion-MNIST DP-FedAvg: final-model epsilon vs canary repetitions"
set style fill solid 0.6
set boxwidth 0.5
set xlabel "canary repetitions"
set xtics ("1" 0, "2" 1, "4" 2, "8" 3, "16" 4, "32" 5)
set xrange [-0.6:*]
set ylabel "epsilon"
set yrange [0:*]
set key top left
do for [i = 1:n] {
  z = word(noises, i)
  set title sprintf("noise multiplier %s", z)
  # x: log2 of the repetitions; rows of other noise multipliers are skipped (1/0)
  plot table using ($1 == z + 0 ? log($2) / log(2) : 1/0):3 with boxes lc rgb "#4a7ab5" title "eps_est", \
       table using ($1 == z + 0 ? log($2) / log(2) : 1/0):4 with points pt 5 ps 1.5 lc rgb "red" title "eps_lo"
}
unset multiplot
