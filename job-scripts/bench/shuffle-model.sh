#!/usr/bin/env bash
# shuffle-model.sh -- what the shuffle phase of a TeraSort should take on real machines, HTTP
# against MPI, from the CPU seconds per GB measured on this host and the published bandwidths and
# latencies of Tofu (FX10), Tofu-D (Fugaku) and InfiniBand HDR. A model, not a measurement: the
# formula, its inputs and their sources are in docs/shuffle.md "What to expect on real machines".
# Prints one table per interconnect: per node count the network, CPU and latency terms of each
# path, the phase (max(network, CPU) + latency) and http/mpi (above 1: MPI is faster).
#
# Settings (environment; defaults in brackets):
#   DATA_GB [10]          map output per node (TeraSort: its input per node), GB
#   NODES ["4 16 64 256 1024"]
#   HTTP_CPU_S_PER_GB [2.26]  CPU seconds of all JVMs per GB shuffled, HTTP path, on this host
#   MPI_CPU_S_PER_GB [3.01]   the same for the MPI path between hosts, chunks over MPI (variant
#                             mpi-nodirect; docs/benchmarks.md, THREAD_CPU, 5 fetchers: 2.35 and
#                             3.13 CPU s for 1.04 GB); re-measure and pass the new values
#   SHUFFLE_CORES [8]     cores a node's shuffle phase can use (fetchers, merge, servers, GC, JIT;
#                         a decimal number where nodes share cores)
#   BLOCK_MB [256]        HDFS block = map input; maps per node = DATA_GB*1000/BLOCK_MB
#   COPIES [5]            fetchers per reducer (mapreduce.reduce.shuffle.parallelcopies)
#   SEG_MS [0]            software time per fetched map output beyond the network round trip
#                         (both paths; this host's reducer logs show about 1 ms, see the doc)
#   MACHINES ["FX10 FUGAKU IB"]  the tables to print; TESTBED is the multi-host testbed on this
#                         machine (to check the model against it: its hosts share this machine's
#                         cores, so pass SHUFFLE_CORES = cores / hosts and one node count at a time)
#   Per machine, prefix FX10_, FUGAKU_ or IB_:
#   *_CPU_FACTOR          per-core time relative to this host's core [3.0, 2.0, 1.0; assumed]
#   *_MPI_GBS             MPI bandwidth into/out of one node, GB/s [5, 38.1, 24]
#   *_TCP_GBS             TCP bandwidth of one node, GB/s [0.5, 3.8, 5]
#   *_MPI_LAT_US          one-way MPI latency, µs [2, 0.49, 1]
#   *_TCP_RTT_US          TCP round trip, µs [50, 50, 20]
#   *_LINK_GBS            torus link bandwidth per direction for the bisection, GB/s; 0 = a fat
#                         tree with full bisection (no bisection term) [5, 6.8, 0]
#   (TESTBED_: 1.0, 0.119, 0.119 (tc tbf at 1gbit, MpiBandwidth between n1 and n2: 119-120 MB/s),
#   50, 100, 0; latencies assumed for veth pairs on one bridge)
#
# Example: MPI_CPU_S_PER_GB=2.5 DATA_GB=1 job-scripts/bench/shuffle-model.sh
set -euo pipefail
# --help: the comment above, before anything runs.
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }
[[ $# -eq 0 ]] || { echo "shuffle-model.sh takes no arguments (settings are environment variables; see --help)" >&2; exit 2; }

number() { # name value: a non-negative decimal number, or a clear error
    [[ $2 =~ ^[0-9]*\.?[0-9]+$ ]] || { echo "$1 must be a non-negative number, got '$2'" >&2; exit 2; }
}
positive() { # name value: a decimal number above 0 (a bandwidth or a factor to divide by)
    number "$1" "$2"
    [[ $2 =~ [1-9] ]] || { echo "$1 must be above 0, got '$2'" >&2; exit 2; }
}
data_gb=${DATA_GB:-10}
nodes=${NODES:-"4 16 64 256 1024"}
http_cpu=${HTTP_CPU_S_PER_GB:-2.26}
mpi_cpu=${MPI_CPU_S_PER_GB:-3.01}
cores=${SHUFFLE_CORES:-8}
block_mb=${BLOCK_MB:-256}
copies=${COPIES:-5}
seg_ms=${SEG_MS:-0}
read -r -a chosen <<<"${MACHINES:-FX10 FUGAKU IB}"
positive DATA_GB "$data_gb"
for v in HTTP_CPU_S_PER_GB:"$http_cpu" MPI_CPU_S_PER_GB:"$mpi_cpu" SEG_MS:"$seg_ms"; do
    number "${v%%:*}" "${v#*:}"
done
positive SHUFFLE_CORES "$cores" # a share of a core where hosts share one machine (TESTBED)
for v in BLOCK_MB:"$block_mb" COPIES:"$copies"; do
    [[ ${v#*:} =~ ^[1-9][0-9]*$ ]] || { echo "${v%%:*} must be a whole number >= 1, got '${v#*:}'" >&2; exit 2; }
done
for n in $nodes; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "NODES must be whole numbers >= 1, got '$n'" >&2; exit 2; }
done

# name, defaults: cpu_factor mpi_gbs tcp_gbs mpi_lat_us tcp_rtt_us link_gbs
machines=(
    "FX10|Tofu (FX10, SPARC64 IXfx)|3.0 5 0.5 2 50 5"
    "FUGAKU|Tofu-D (Fugaku, A64FX)|2.0 38.1 3.8 0.49 50 6.8"
    "IB|InfiniBand HDR fat tree (x86)|1.0 24 5 1 20 0"
    "TESTBED|the multi-host testbed on this machine (veth, links at 1gbit)|1.0 0.119 0.119 50 100 0"
)
for c in "${chosen[@]}"; do
    [[ " FX10 FUGAKU IB TESTBED " == *" $c "* ]] || { echo "MACHINES: unknown machine '$c' (FX10, FUGAKU, IB, TESTBED)" >&2; exit 2; }
done
keys=(CPU_FACTOR MPI_GBS TCP_GBS MPI_LAT_US TCP_RTT_US LINK_GBS)

echo "TeraSort shuffle phase per node: ${data_gb} GB map output per node, ${block_mb} MB blocks," \
    "${copies} fetchers per reducer, ${cores} cores for the shuffle phase;" \
    "CPU s/GB on this host: http ${http_cpu}, mpi ${mpi_cpu}; SEG_MS ${seg_ms}"
for m in "${machines[@]}"; do
    IFS='|' read -r prefix title defaults <<<"$m"
    [[ " ${chosen[*]} " == *" $prefix "* ]] || continue
    read -r -a values <<<"$defaults"
    for i in "${!keys[@]}"; do
        var="${prefix}_${keys[$i]}"
        values[i]=${!var:-${values[i]}}
        if [[ $var == *_GBS && $var != *_LINK_GBS ]]; then positive "$var" "${values[i]}"; else number "$var" "${values[i]}"; fi
    done
    echo
    echo "== $title: cpu x${values[0]}, MPI ${values[1]} GB/s, TCP ${values[2]} GB/s," \
        "MPI latency ${values[3]} us, TCP RTT ${values[4]} us, torus link ${values[5]} GB/s (0: fat tree)"
    awk -v D="$data_gb" -v nodes="$nodes" -v ch="$http_cpu" -v cm="$mpi_cpu" -v C="$cores" \
        -v block="$block_mb" -v P="$copies" -v seg="$seg_ms" -v f="${values[0]}" -v bm="${values[1]}" \
        -v bt="${values[2]}" -v lat="${values[3]}" -v rtt="${values[4]}" -v L="${values[5]}" '
    # The network time of an all-to-all of D per node: every node sends and receives D*(N-1)/N at
    # its injection bandwidth B; on a torus, half of all bytes (N*D/4 each way) also cross the
    # bisection: 2*N/s links per direction for a cubic shape of side s = (N/12)^(1/3) in Tofu units
    # of 12 nodes, i.e. s*D/(8*L). A fat tree with full bisection has no such bound.
    function net(N, B,    v, t, s, tb) {
        v = D * (N - 1) / N
        t = v / B
        if (L > 0 && N > 12) {
            s = exp(log(N / 12) / 3)
            tb = s * D / (8 * L)
            if (tb > t) t = tb
        }
        return t
    }
    function max(a, b) { return a > b ? a : b }
    BEGIN {
        maps = D * 1000 / block
        printf "%6s | %8s %8s %8s %8s | %8s %8s %8s %8s | %9s\n", "nodes", "http net", "cpu", "latency", "phase",
            "mpi net", "cpu", "latency", "phase", "http/mpi"
        n = split(nodes, list, " ")
        for (i = 1; i <= n; i++) {
            N = list[i]
            # CPU: every byte of the node is served and fetched and merged (also the local 1/N).
            hc = D * ch * f / C; mc = D * cm * f / C
            # Latency, per fetcher, fetches one after another: HTTP one connection per host and
            # batch of up to 20 map outputs (MAX_MAPS_AT_ONCE of Hadoop; handshake + request: 2
            # round trips); MPI one request per map output (a round trip: 2 one-way latencies,
            # mostly hidden by asking ahead, counted anyway); both SEG_MS per map output.
            segs = maps * N / P
            batches = int(maps / 20) + (maps / 20 > int(maps / 20) ? 1 : 0)
            hl = (N * batches / P) * 2 * rtt / 1e6 + segs * seg / 1e3
            ml = segs * (2 * lat / 1e6 + seg / 1e3)
            hn = net(N, bt); mn = net(N, bm)
            hp = max(hn, hc) + hl; mp = max(mn, mc) + ml
            printf "%6d | %7.2fs %7.2fs %7.3fs %7.2fs | %7.2fs %7.2fs %7.3fs %7.2fs | %8.2fx\n", N, hn, hc, hl, hp,
                mn, mc, ml, mp, hp / mp
        }
    }'
done
