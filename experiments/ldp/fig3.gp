# Matsumoto et al. 2022, Fig. 3: measured eps (Eq. 3) of the dummy gradient against its norm R (L = 1), one
# line per eps, white-box and black-box panels; the dashed lines are the closed forms of fig3.py.
# gnuplot -e "data='fig3.dat'; out='fig3.png'; eps='0.5 1 2 4'" fig3.gp
set terminal pngcairo size 1200,450 font ",10"
set output out
set datafile missing "?"
set logscale x
set xrange [0.03:3]
set xlabel "norm of the dummy gradient R (units of L)"
set ylabel "measured eps (Eq. 3)"
set yrange [0:*]
set key top left font ",8"
q = 0.5 + asin(sqrt(2 / pi)) / pi
r(x) = x < 1 ? x : 1
cf(x, e, s) = log((0.5 + 0.5 * r(x) * tanh(e / 2) * s) / (0.5 - 0.5 * r(x) * tanh(e / 2) * s))
set multiplot layout 1,2 title "Effect of the gradient's norm (Matsumoto et al. 2022, Fig. 3), dummy gradient, Fashion-MNIST CNN size"
do for [b = 0:1] {
  s = b == 0 ? 1 : 2 * q - 1
  set title (b == 0 ? "white-box (Eq. 5)" : "black-box (Eq. 7)")
  plot for [i = 1:words(eps)] data index b using 1:(column(i + 1)) with linespoints pt 7 lc i title sprintf("eps %s", word(eps, i)), \
       for [i = 1:words(eps)] cf(x, word(eps, i) + 0, s) with lines dt 2 lc i notitle
}
unset multiplot
