# SPDX-License-Identifier: MIT
# sigfd-bench plot: gnuplot -e "dir='build/bench'" bench/plot.gp
# Reads the .dat files sigfd-bench writes into dir, draws dir/latency.svg:
# round-trip latency CDFs (pinned, unpinned), throughput and flood bars.
if (!exists("dir")) dir = "build/bench"
pin  = dir."/latency_cdf_pinned.dat"
free = dir."/latency_cdf_unpinned.dat"
bars = dir."/bars.dat"

# fmt='png' draws latency.png instead (pngcairo), e.g. for a quick look.
if (!exists("fmt")) fmt = "svg"
if (fmt eq "png") {
    set terminal pngcairo size 1400,1000 enhanced font "sans,10" background "white"
} else {
    set terminal svg size 1400,1000 dynamic enhanced font "sans,11" background "white"
}
set output dir."/latency.".fmt
set datafile missing "-"
set grid lc rgb "#dddddd"

# One colour per mechanism, the same in every panel; the sigfd modes bold.
names = "signalfd signalfd-epoll sigwaitinfo self-pipe sigfd-local sigfd-share sigfd-kernel libuv libev libev-signalfd libevent"
array palette[11] = ["#000000", "#7f7f7f", "#bcbd22", "#8c564b", "#1f77b4", "#d62728", \
                     "#9467bd", "#2ca02c", "#ff7f0e", "#e377c2", "#17becf"]
lwid(name) = (strstrt(name, "sigfd-") == 1 ? 3 : 1.5)

set multiplot layout 2,2 title "sigfd-bench: signal delivery, sigfd beside the alternatives"

do for [f in pin." ".free] {
    hdr = system("head -n 1 ".f)
    n = words(hdr)
    array lc[n]
    do for [i=2:n] {
        lc[i] = "#333333"
        do for [k=1:words(names)] { if (word(names, k) eq word(hdr, i)) { lc[i] = palette[k] } }
    }
    set title (f eq pin ? "Round trip, both processes pinned to one CPU (CDF to p99.9)" : "Round trip, unpinned (CDF to p99.9)")
    set xlabel "round trip (us, log scale)"
    set ylabel "percentile"
    set logscale x
    set yrange [0:100]
    set key bottom right font ",9"
    plot for [i=2:n] f using i:1 skip 1 with lines lw lwid(word(hdr, i)) lc rgb lc[i] \
         title word(hdr, i)
    unset logscale x
}

set title "Throughput, flow-controlled, values verified (M signals/s; missing = n/a)"
set xlabel ""
set ylabel "M signals / s"
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -35 font ",9"
set xrange [-0.6:*]
set key top right
plot bars using 2:xtic(1) skip 1 title "one record per call" lc rgb "#1f77b4", \
     "" using 3 skip 1 title "batched" lc rgb "#ff7f0e"

set title "Loss under flood: of 8192 queued at once, arrived (log scale)"
set ylabel "arrived"
set logscale y
set yrange [0.8:20000]
plot bars using 5:xtic(1) skip 1 notitle lc rgb "#2ca02c", 8192 with lines dt 2 lc rgb "#000000" title "sent"
unset multiplot
