# Matsumoto et al. 2022, Fig. 2: one panel per crafter, bars of eps_empirical (Eq. 3) per eps for the
# white-box and the two black-box columns; the dashed line is the bound eps itself. An
# infinite estimate (no error of one kind) runs off the top.
# gnuplot -e "data='fig2.dat'; out='fig2.png'; crafters='benign ...'" fig2.gp
set terminal pngcairo size 1500,900 font ",10"
set output out
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:5]
set ylabel "measured eps (Eq. 3)"
set xlabel "eps of LDP-SGD"
set key top left font ",8"
set multiplot layout 2,3 title "LDP-SGD privacy test on Fashion-MNIST (Matsumoto et al. 2022, Fig. 2)"
do for [i=1:words(crafters)] {
  set title word(crafters, i)
  plot data index (i-1) using 2:xtic(1) title "white-box" lc rgb "#1f77b4", \
       '' index (i-1) using 3 title "black-box" lc rgb "#ff7f0e", \
       '' index (i-1) using 4 title "black-box, printed constant" lc rgb "#2ca02c", \
       '' index (i-1) using 0:1 with linespoints pt 7 lc rgb "black" dt 2 title "eps"
}
unset multiplot
