# Matsumoto et al. 2022, Fig. 2 as Matsumoto et al. report it (Sec. 4.1): the mean of ten measurements (seeds 1..10, each
# re-drawing theta_t) of eps_empirical (Eq. 3) per crafter and eps, with +-1 sd bars, for the
# white-box and the two black-box columns; the dashed line is the bound eps itself.
# gnuplot -e "data='average.dat'; out='fig2_average.png'" fig2_average.gp (average.py --dat writes
# the data; its first line names the crafters, one panel each)
set terminal pngcairo size 1500,900 font ",10"
set output out
set datafile missing "?"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set yrange [0:5]
set ylabel "measured eps (Eq. 3), mean of 10 seeds"
set xlabel "eps of LDP-SGD"
set key top left font ",8"
crafters = system(sprintf("sed -n 's/^# crafters: //p' '%s'", data))
set multiplot layout 2,3 title "LDP-SGD privacy test on Fashion-MNIST, ten-seed means (Matsumoto et al. 2022, Fig. 2)"
do for [i=1:words(crafters)] {
  set title word(crafters, i)
  plot data index (i-1) using 2:3:xtic(1) title "white-box" lc rgb "#1f77b4", \
       '' index (i-1) using 4:5 title "black-box" lc rgb "#ff7f0e", \
       '' index (i-1) using 6:7 title "black-box, printed constant" lc rgb "#2ca02c", \
       '' index (i-1) using 0:1 with linespoints pt 7 lc rgb "black" dt 2 title "eps"
}
unset multiplot
