# Andrew et al. 2024, Fig. 1 style: densities of the final-model canary cosines for each number of
# repetitions, one panel per noise multiplier, with the null N(0, 1/d) in black.
# Inputs: dir, out, noises, repeats (-e).
set terminal pngcairo size 1400,400 font ",10" noenhanced
set output out
n = words(noises)
set multiplot layout 1, n title "Fashion-MNIST DP-FedAvg: final-model canary cosines"
set xlabel "cosine"
set ylabel "density"
set xtics format "%.3f" rotate by -30
sd = 1 / sqrt(101770)
do for [i = 1:n] {
  z = word(noises, i)
  set title sprintf("noise multiplier %s", z)
  plot for [r in repeats] sprintf("< awk -F, 'NR > 1 && $2 == 1 { print $3 }' %s/repeats-%s-noise-%s/scores_final.csv", dir, r, z) \
         using 1:(1./1000) smooth kdensity lw 2 title sprintf("%s reps", r), \
       exp(-x**2 / (2 * sd**2)) / (sd * sqrt(2 * pi)) lw 2 lc rgb "black" title "null"
}
unset multiplot
