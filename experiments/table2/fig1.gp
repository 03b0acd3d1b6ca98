# Densities of the canary cosines of one run per sigma against the null N(0, 1/d), in
# the style of Andrew et al. 2024, Fig. 1. Call: gnuplot -e "dim=...; k=...; out='...png'; files='a.csv b.csv';
# titles='sigma=4.22 ...'" fig1.gp  (CSV id,label,score from score-dump, k canaries each)
set terminal pngcairo size 900,560 noenhanced
set output out
set datafile separator ","
set key top left
set xlabel "cosine(canary, release)"
set ylabel "density"
set title sprintf("One-shot audit of the Gaussian mechanism (Andrew et al. 2024, Alg. 1), d = %d", dim)
null(x) = sqrt(dim / (2 * pi)) * exp(-dim * x * x / 2)
set samples 400
scale = 1.0 / sqrt(dim)
set xrange [-4 * scale : 8 * scale]
plot for [i = 1 : words(files)] word(files, i) every ::1 using 3:(1.0 / k) smooth kdensity \
       lw 2 title word(titles, i), \
     null(x) lw 2 lc rgb "black" title "null N(0,1/d)"
