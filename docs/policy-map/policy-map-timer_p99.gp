# gnuplot -d -c THIS_FILE OUTPUT.svg (-d: without ~/.gnuplot; the output defaults to policy-map-timer_p99.svg)
set terminal svg size 1950,620 dynamic noenhanced font "sans,12" background "white"
set output (ARGC > 0 ? ARG1 : 'policy-map-timer_p99.svg')
set linetype 1 lc rgb "#1f77b4"
set linetype 2 lc rgb "#ff7f0e"
set linetype 3 lc rgb "#2ca02c"
set linetype 4 lc rgb "#d62728"
set linetype 5 lc rgb "#9467bd"
set linetype 6 lc rgb "#8c564b"
set linetype 7 lc rgb "#e377c2"
set linetype 8 lc rgb "#7f7f7f"
set linetype 9 lc rgb "#bcbd22"
set linetype 10 lc rgb "#17becf"
set linetype 11 lc rgb "#aec7e8"
set linetype 12 lc rgb "#ffbb78"
set linetype 13 lc rgb "#98df8a"
set linetype 14 lc rgb "#ff9896"
set linetype 15 lc rgb "#c5b0d5"
set linetype 16 lc rgb "#c49c94"
set linetype 17 lc rgb "#f7b6d2"
set linetype 18 lc rgb "#c7c7c7"
set linetype 19 lc rgb "#dbdb8d"
set linetype 20 lc rgb "#9edae5"
set linetype cycle 20
set title 'Which L1 DEC policy gives the lowest timer-interrupt latency p99'."\n".'cell: the winner; number: its margin over the runner-up (%)'
set style fill solid 1.0 border rgb "white"
set key outside right top
set xlabel 'l2.housekeeping_hz'
set ylabel 'l2.vcpus'
set xtics ('100' 0, '1000' 1, '3000' 2, '10000' 3)
set ytics ('2' 0, '4' 1, '8' 2)
set xrange [-0.5:4-0.5]
set yrange [-0.5:3-0.5]
set multiplot layout 2,3 title 'Which L1 DEC policy gives the lowest timer-interrupt latency p99'."\n".'cell: the winner; number: its margin over the runner-up (%)'
unset label
set title 'l0.run_output = powervm, l0.costs.get_state = 1500'
set label '100.0' at 0, 0 center front tc rgb "white"
set label '100.0' at 1, 0 center front tc rgb "white"
set label '100.0' at 2, 0 center front tc rgb "white"
set label '100.0' at 3, 0 center front tc rgb "white"
set label '100.0' at 0, 1 center front tc rgb "white"
set label '100.0' at 1, 1 center front tc rgb "white"
set label '100.0' at 2, 1 center front tc rgb "white"
set label '100.0' at 3, 1 center front tc rgb "white"
set label '10.3' at 0, 2 center front tc rgb "white"
set label '100.0' at 1, 2 center front tc rgb "white"
set label '100.0' at 2, 2 center front tc rgb "white"
set label '100.0' at 3, 2 center front tc rgb "white"
$p0 << EOD
0 0 14245634
1 0 14245634
2 0 14245634
3 0 14245634
0 1 14245634
1 1 14245634
2 1 14245634
3 1 14245634
0 2 14245634
1 2 14245634
2 2 14245634
3 2 14245634
EOD
plot $p0 using 1:2:(0.5):(0.5):3 with boxxyerror fc rgb variable notitle, NaN with boxes fc rgb "#d95f02" title 'no-cancel', NaN with boxes fc rgb "#1b9e77" title 'cancel', NaN with boxes fc rgb "#7570b3" title 'cancel-poll', NaN with boxes fc rgb "#999999" title "tie (within 0.05 %)", NaN with boxes fc rgb "#bbbbbb" title "no runs"
unset label
set title 'l0.run_output = powervm, l0.costs.get_state = 15000'
set label '100.0' at 0, 0 center front tc rgb "white"
set label '100.0' at 1, 0 center front tc rgb "white"
set label '100.0' at 2, 0 center front tc rgb "white"
set label '100.0' at 3, 0 center front tc rgb "white"
set label '100.0' at 0, 1 center front tc rgb "white"
set label '100.0' at 1, 1 center front tc rgb "white"
set label '100.0' at 2, 1 center front tc rgb "white"
set label '100.0' at 3, 1 center front tc rgb "white"
set label '10.1' at 0, 2 center front tc rgb "white"
set label '100.0' at 1, 2 center front tc rgb "white"
set label '100.0' at 2, 2 center front tc rgb "white"
set label '100.0' at 3, 2 center front tc rgb "white"
$p1 << EOD
0 0 14245634
1 0 14245634
2 0 14245634
3 0 14245634
0 1 14245634
1 1 14245634
2 1 14245634
3 1 14245634
0 2 14245634
1 2 14245634
2 2 14245634
3 2 14245634
EOD
plot $p1 using 1:2:(0.5):(0.5):3 with boxxyerror fc rgb variable notitle, NaN with boxes fc rgb "#d95f02" title 'no-cancel', NaN with boxes fc rgb "#1b9e77" title 'cancel', NaN with boxes fc rgb "#7570b3" title 'cancel-poll', NaN with boxes fc rgb "#999999" title "tie (within 0.05 %)", NaN with boxes fc rgb "#bbbbbb" title "no runs"
unset label
set title 'l0.run_output = powervm, l0.costs.get_state = 150000'
set label '100.0' at 0, 0 center front tc rgb "white"
set label '100.0' at 1, 0 center front tc rgb "white"
set label '100.0' at 2, 0 center front tc rgb "white"
set label '100.0' at 3, 0 center front tc rgb "white"
set label '100.0' at 0, 1 center front tc rgb "white"
set label '100.0' at 1, 1 center front tc rgb "white"
set label '100.0' at 2, 1 center front tc rgb "white"
set label '100.0' at 3, 1 center front tc rgb "white"
set label '6.5' at 0, 2 center front tc rgb "white"
set label '100.0' at 1, 2 center front tc rgb "white"
set label '100.0' at 2, 2 center front tc rgb "white"
set label '100.0' at 3, 2 center front tc rgb "white"
$p2 << EOD
0 0 14245634
1 0 14245634
2 0 14245634
3 0 14245634
0 1 14245634
1 1 14245634
2 1 14245634
3 1 14245634
0 2 14245634
1 2 14245634
2 2 14245634
3 2 14245634
EOD
plot $p2 using 1:2:(0.5):(0.5):3 with boxxyerror fc rgb variable notitle, NaN with boxes fc rgb "#d95f02" title 'no-cancel', NaN with boxes fc rgb "#1b9e77" title 'cancel', NaN with boxes fc rgb "#7570b3" title 'cancel-poll', NaN with boxes fc rgb "#999999" title "tie (within 0.05 %)", NaN with boxes fc rgb "#bbbbbb" title "no runs"
unset label
set title 'l0.run_output = powervm-dec-expiry, l0.costs.get_state = 1500'
set label '100.0' at 0, 0 center front tc rgb "white"
set label '100.0' at 1, 0 center front tc rgb "white"
set label '100.0' at 2, 0 center front tc rgb "white"
set label '100.0' at 3, 0 center front tc rgb "white"
set label '100.0' at 0, 1 center front tc rgb "white"
set label '100.0' at 1, 1 center front tc rgb "white"
set label '100.0' at 2, 1 center front tc rgb "white"
set label '100.0' at 3, 1 center front tc rgb "white"
set label '10.3' at 0, 2 center front tc rgb "white"
set label '100.0' at 1, 2 center front tc rgb "white"
set label '100.0' at 2, 2 center front tc rgb "white"
set label '100.0' at 3, 2 center front tc rgb "white"
$p3 << EOD
0 0 14245634
1 0 14245634
2 0 14245634
3 0 14245634
0 1 14245634
1 1 14245634
2 1 14245634
3 1 14245634
0 2 14245634
1 2 14245634
2 2 14245634
3 2 14245634
EOD
plot $p3 using 1:2:(0.5):(0.5):3 with boxxyerror fc rgb variable notitle, NaN with boxes fc rgb "#d95f02" title 'no-cancel', NaN with boxes fc rgb "#1b9e77" title 'cancel', NaN with boxes fc rgb "#7570b3" title 'cancel-poll', NaN with boxes fc rgb "#999999" title "tie (within 0.05 %)", NaN with boxes fc rgb "#bbbbbb" title "no runs"
unset label
set title 'l0.run_output = powervm-dec-expiry, l0.costs.get_state = 15000'
set label '100.0' at 0, 0 center front tc rgb "white"
set label '100.0' at 1, 0 center front tc rgb "white"
set label '100.0' at 2, 0 center front tc rgb "white"
set label '100.0' at 3, 0 center front tc rgb "white"
set label '100.0' at 0, 1 center front tc rgb "white"
set label '100.0' at 1, 1 center front tc rgb "white"
set label '100.0' at 2, 1 center front tc rgb "white"
set label '100.0' at 3, 1 center front tc rgb "white"
set label '10.1' at 0, 2 center front tc rgb "white"
set label '100.0' at 1, 2 center front tc rgb "white"
set label '100.0' at 2, 2 center front tc rgb "white"
set label '100.0' at 3, 2 center front tc rgb "white"
$p4 << EOD
0 0 14245634
1 0 14245634
2 0 14245634
3 0 14245634
0 1 14245634
1 1 14245634
2 1 14245634
3 1 14245634
0 2 14245634
1 2 14245634
2 2 14245634
3 2 14245634
EOD
plot $p4 using 1:2:(0.5):(0.5):3 with boxxyerror fc rgb variable notitle, NaN with boxes fc rgb "#d95f02" title 'no-cancel', NaN with boxes fc rgb "#1b9e77" title 'cancel', NaN with boxes fc rgb "#7570b3" title 'cancel-poll', NaN with boxes fc rgb "#999999" title "tie (within 0.05 %)", NaN with boxes fc rgb "#bbbbbb" title "no runs"
unset label
set title 'l0.run_output = powervm-dec-expiry, l0.costs.get_state = 150000'
set label '100.0' at 0, 0 center front tc rgb "white"
set label '100.0' at 1, 0 center front tc rgb "white"
set label '100.0' at 2, 0 center front tc rgb "white"
set label '100.0' at 3, 0 center front tc rgb "white"
set label '100.0' at 0, 1 center front tc rgb "white"
set label '100.0' at 1, 1 center front tc rgb "white"
set label '100.0' at 2, 1 center front tc rgb "white"
set label '100.0' at 3, 1 center front tc rgb "white"
set label 'tie' at 0, 2 center front tc rgb "white"
set label '100.0' at 1, 2 center front tc rgb "white"
set label '100.0' at 2, 2 center front tc rgb "white"
set label '100.0' at 3, 2 center front tc rgb "white"
$p5 << EOD
0 0 14245634
1 0 14245634
2 0 14245634
3 0 14245634
0 1 14245634
1 1 14245634
2 1 14245634
3 1 14245634
0 2 10066329
1 2 14245634
2 2 14245634
3 2 14245634
EOD
plot $p5 using 1:2:(0.5):(0.5):3 with boxxyerror fc rgb variable notitle, NaN with boxes fc rgb "#d95f02" title 'no-cancel', NaN with boxes fc rgb "#1b9e77" title 'cancel', NaN with boxes fc rgb "#7570b3" title 'cancel-poll', NaN with boxes fc rgb "#999999" title "tie (within 0.05 %)", NaN with boxes fc rgb "#bbbbbb" title "no runs"
unset multiplot
