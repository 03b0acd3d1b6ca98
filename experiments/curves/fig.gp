# Whole privacy curves of one DP-SGD run (issue 23): the analytic trade-off curves the PLD
# accountant certifies, as TPR bounds (1 - fnr of rdp-compose --tradeoff), with every iterate
# released and with the final model only (Steinke et al. 2025's heuristic), beside what an audit
# measured (tpr_lo over fpr_hi of eps-from-scores --roc-band: a simultaneous 95% band). A band
# above an analytic curve refutes it; below, the audit's slack and the threat model's.
# gnuplot -e "dir='out/curves'; out='fig.png'" fig.gp
set terminal pngcairo size 1100,800 font ",11"
set output out
set datafile separator ","
set logscale xy
set xrange [1e-5:1]
set yrange [1e-5:1]
set xlabel "false-positive rate"
set ylabel "true-positive rate"
set key top left
set title "DP-SGD at eps 2 (z 2.248, q 0.1, 100 steps): analytic curves and the malicious-dataset audit (10^5 trials)"
plot dir.'/all.csv' every ::1 using 1:(1-$2) with lines lw 2 lc rgb "#1f77b4" title "analytic, all iterates (PLD)", \
     dir.'/final.csv' every ::1 using 1:(1-$2) with lines lw 2 dt 2 lc rgb "#2ca02c" title "analytic, last iterate (heuristic)", \
     dir.'/band.csv' every ::1 using 4:5 with steps lw 2 lc rgb "#d62728" title "measured: 95% band (TPR lower bound at the FPR upper bound)", \
     dir.'/band.csv' every ::1 using 2:3 with steps lw 1 lc rgb "#ff9896" title "measured: observed rates"
