#!/usr/bin/env bash
# iterative.sh -- iterative MapReduce jobs (PageRank, K-means: one job per iteration, so every
# iteration pays task start-up again) with task containers in pool slots against Hadoop's stock
# launch, side by side on ONE real one-machine cluster (ResourceManager, JobHistoryServer,
# NODEMANAGERS NodeManagers, one pool per NodeManager under one mpirun; the same YARN
# configuration for both sides: the stock runs opt out of the pool with JVMREUSE_POOL=off in the
# task environment, the pool runs set JVMREUSE_POOL=yes), interleaved (the order alternates
# from round to round).
#
# Per (workload, iteration count, mode): ROUNDS runs; every run's result is checked against the
# single-process reference (verify-pagerank / verify-kmeans) and a wrong result ends the script
# with status 1. Measured by the workloads' driver (docs/workloads.md, "Timings"): total time from
# iteration 1's submission to the last iteration's end (PageRank's set-up job not counted) and
# task start-up time within it (the union of the tasks' launch -> user code intervals).
# Prints medians, the ratio stock/pool, "% less time with the pool" and start-up per iteration.
#
# Writes into OUT_DIR:
#   results.csv                 the driver's rows (workload,iterations,mode,total_ms,startup_ms)
#   runs.csv                    one row per run, with round, label, client wall time, verification
#   summary.txt                 the table printed at the end
#   WORKLOAD-compare.png        `chart compare`: total time per iteration count, stock vs pool
#   WORKLOAD-Nit-MODE-timeline.png  `chart timeline` of round 1 at the largest iteration count N
#   timings/                    the driver's per-run task and iteration CSVs
#
# Settings (environment):
#   WORKLOADS          "pagerank kmeans"   which workloads, in this order
#   ITERATIONS         "1 2 4 8"           PageRank iteration counts
#   KMEANS_ITERATIONS  $ITERATIONS         K-means iteration counts
#   ROUNDS             3                   counted runs per (workload, iterations, mode)
#   WARMUP             1                   1: one uncounted 1-iteration run per workload and mode first
#   GRAPH_NODES        20000               generate-graph --nodes (mean degree 8)
#   POINTS             50000               generate-points --points, with KMEANS_K (8), KMEANS_D (4)
#   REDUCERS           2                   --reducers of every job
#   NODEMANAGERS       2
#   OUT_DIR            build/bench/iterative (relative to the repository)
#   KEEP=1             keeps the cluster dir (${TMPDIR:-/tmp}/jvmreuse-bench-iterative.*) with its logs
#
# Example: WORKLOADS=pagerank ITERATIONS="1 2" ROUNDS=1 job-scripts/bench/iterative.sh
set -euo pipefail
# --help: the comment above, before anything runs.
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=job-scripts/lib/bench-cluster.sh
source "$repo/job-scripts/lib/bench-cluster.sh"
workloads=${WORKLOADS:-pagerank kmeans}
pr_iterations=${ITERATIONS:-1 2 4 8}
km_iterations=${KMEANS_ITERATIONS:-$pr_iterations}
rounds=${ROUNDS:-3}
warmup=${WARMUP:-1}
graph_nodes=${GRAPH_NODES:-20000}
points=${POINTS:-50000}
kmeans_k=${KMEANS_K:-8}
kmeans_d=${KMEANS_D:-4}
reducers=${REDUCERS:-2}
nodemanagers=${NODEMANAGERS:-2}
out=${OUT_DIR:-$repo/build/bench/iterative}
jar=$repo/workloads/target/workloads-0.1.0-SNAPSHOT.jar

log() { printf '[iterative] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[[ -f $jar && -d $repo/workloads/target/lib ]] || die "no $jar: run job-scripts/setup.sh first"
for n in $pr_iterations $km_iterations $rounds $graph_nodes $points $kmeans_k $kmeans_d $reducers; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "not a positive number: '$n' (check ITERATIONS, ROUNDS, ...)"
done
for w in $workloads; do
    [[ $w == pagerank || $w == kmeans ]] || die "WORKLOADS: unknown workload '$w' (pagerank, kmeans)"
done

bench_cluster_dir iterative

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/timings" "$out/results.csv" "$out/runs.csv" "$out/summary.txt" "$out"/*-compare.png "$out"/*-timeline.png
mkdir -p "$out/timings"
printf 'workload,iterations,mode,round,label,wall_ms,total_ms,startup_ms,verified\n' >"$out/runs.csv"

# The generators, checks and charts run in a plain JVM (no job client needed).
wl_java() { java -Djava.awt.headless=true -cp "$jar:$repo/workloads/target/lib/*" org.jvmreuse.workloads.Main "$@"; }

bench_start=$EPOCHREALTIME
log "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
bench_cluster_start --nodemanagers "$nodemanagers"
log "cluster up after $(awk -v s="$bench_start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.0f s", e - s }')"

# Inputs, generated once (deterministic: the same settings give the same bytes).
mkdir -p "$dir/data"
for w in $workloads; do
    case $w in
    pagerank) wl_java generate-graph --output "$dir/data/graph" --nodes "$graph_nodes" >"$dir/generate-graph.log" 2>&1 ||
        { tail -n 20 "$dir/generate-graph.log" >&2; die "generate-graph failed"; } ;;
    kmeans) wl_java generate-points --output "$dir/data/points" --points "$points" --k "$kmeans_k" \
        --dimensions "$kmeans_d" >"$dir/generate-points.log" 2>&1 ||
        { tail -n 20 "$dir/generate-points.log" >&2; die "generate-points failed"; } ;;
    esac
done

# One run: $1 workload, $2 iterations, $3 stock|pool, $4 round (0: warm-up, not counted).
run_one() {
    local w=$1 n=$2 mode=$3 round=$4 switch=yes start end label input opts rc
    if [[ $mode == stock ]]; then switch=off; fi
    label=$w-${n}it-$mode-r$round
    local output=$dir/data/out-$label runlog=$dir/$label.log
    opts=("-Dmapreduce.map.env=JVMREUSE_POOL=$switch" "-Dmapreduce.reduce.env=JVMREUSE_POOL=$switch")
    local args=(--output "$output" --iterations "$n" --reducers "$reducers" --label "$label" --timings "$out/timings")
    if ((round > 0)); then
        args+=(--results "$out/results.csv" --mode "$mode")
    fi
    case $w in
    pagerank) input=$dir/data/graph ;;
    kmeans) input=$dir/data/points args+=(--k "$kmeans_k") ;;
    esac
    start=$EPOCHREALTIME
    rc=0
    hadoop jar "$jar" "$w" "${opts[@]}" --input "$input" "${args[@]}" >"$runlog" 2>&1 || rc=$?
    end=$EPOCHREALTIME
    if ((rc != 0)); then
        log "ERROR: $label failed (status $rc); the end of its output:"
        tail -n 30 "$runlog" >&2
        KEEP=1
        exit 1
    fi
    # The result against the single-process reference.
    local check=$dir/$label.verify
    case $w in
    pagerank) wl_java verify-pagerank --graph "$input" --output "$output" >"$check" 2>&1 || rc=$? ;;
    kmeans) wl_java verify-kmeans --input "$input" --output "$output" >"$check" 2>&1 || rc=$? ;;
    esac
    if ((rc != 0)); then
        log "ERROR: WRONG RESULT: $label does not match the reference (verify-$w status $rc):"
        sed 's/^/    /' "$check" >&2
        KEEP=1
        exit 1
    fi
    local wall total startup
    wall=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.0f", (e - s) * 1000 }')
    # "[LABEL] N iterations in T s (task start-up S s of it); result ..."
    read -r total startup < <(sed -n 's/.* iterations in \([0-9.]*\) s (task start-up \([0-9.]*\) s of it).*/\1 \2/p' "$runlog" |
        awk '{ printf "%.0f %.0f\n", $1 * 1000, $2 * 1000 }')
    [[ -n ${total:-} ]] || die "$label: no total time in its output ($runlog)"
    if ((round > 0)); then
        printf '%s,%s,%s,%s,%s,%s,%s,%s,yes\n' "$w" "$n" "$mode" "$round" "$label" "$wall" "$total" "$startup" >>"$out/runs.csv"
    fi
    log "$label: total $(awk -v t="$total" -v s="$startup" 'BEGIN { printf "%.1f s, start-up %.1f s", t / 1000, s / 1000 }'),\
 wall $(awk -v w="$wall" 'BEGIN { printf "%.1f s", w / 1000 }'); verified: $(tail -n 1 "$check")"
    rm -rf "$output"
}

for w in $workloads; do
    if [[ $w == pagerank ]]; then counts=$pr_iterations; else counts=$km_iterations; fi
    if ((warmup)); then
        run_one "$w" 1 stock 0
        run_one "$w" 1 pool 0
    fi
    flip=0
    for ((round = 1; round <= rounds; round++)); do
        for n in $counts; do
            if ((flip++ % 2)); then order=(pool stock); else order=(stock pool); fi
            for mode in "${order[@]}"; do
                run_one "$w" "$n" "$mode" "$round"
            done
        done
    done
done

# Median of the runs.csv column named $4 for workload $1, iterations $2, mode $3.
median() {
    awk -F, -v w="$1" -v n="$2" -v m="$3" -v c="$4" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == w && $2 == n && $3 == m { print $col[c] }' "$out/runs.csv" |
        sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Charts: comparison per workload; timelines of round 1 at the largest iteration count.
pngs=()
for w in $workloads; do
    if [[ $w == pagerank ]]; then counts=$pr_iterations; else counts=$km_iterations; fi
    png=$out/$w-compare.png
    if wl_java chart compare --csv "$out/results.csv" --workload "$w" --out "$png" \
        --title "$w: stock launch vs pool slots (median of $rounds)" >"$dir/chart.log" 2>&1; then
        pngs+=("$png")
    else
        log "warning: no comparison chart for $w: $(tail -n 1 "$dir/chart.log")"
    fi
    max=$(tr -s " " "\n" <<<"$counts" | sort -n | tail -n 1)
    for mode in stock pool; do
        png=$out/$w-${max}it-$mode-timeline.png
        if wl_java chart timeline --csv "$out/timings/$w-${max}it-$mode-r1-tasks.csv" --out "$png" \
            --title "$w, $max iterations, $mode" >"$dir/chart.log" 2>&1; then
            pngs+=("$png")
        else
            log "warning: no timeline for $w $max iterations $mode: $(tail -n 1 "$dir/chart.log")"
        fi
    done
done

{
    printf '\nIterative jobs, stock launch vs pool slots: one cluster, %d NodeManagers, %d reducers; median of %d round(s), every result verified\n' \
        "$nodemanagers" "$reducers" "$rounds"
    inputs=()
    for w in $workloads; do
        case $w in
        pagerank) inputs+=("PageRank $graph_nodes nodes") ;;
        kmeans) inputs+=("K-means $points points, k=$kmeans_k, d=$kmeans_d") ;;
        esac
    done
    printf 'inputs: %s. load average at the end: %s\n' "$(IFS=';'; echo "${inputs[*]}")" "$(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%-9s %5s | %9s %9s | %6s %9s | %-22s %-22s\n' workload iter "stock" "pool" ratio "pool:less" \
        "stock start-up/iter" "pool start-up/iter"
    for w in $workloads; do
        if [[ $w == pagerank ]]; then counts=$pr_iterations; else counts=$km_iterations; fi
        for n in $counts; do
            awk -v w="$w" -v n="$n" -v st="$(median "$w" "$n" stock total_ms)" -v pt="$(median "$w" "$n" pool total_ms)" \
                -v ss="$(median "$w" "$n" stock startup_ms)" -v ps="$(median "$w" "$n" pool startup_ms)" 'BEGIN {
                printf "%-9s %5d | %8.1fs %8.1fs | %5.2fx %8.0f%% | %5.2fs (%3.0f%% of time) %5.2fs (%3.0f%% of time)\n",
                    w, n, st / 1000, pt / 1000, st / pt, (1 - pt / st) * 100,
                    ss / 1000 / n, 100 * ss / st, ps / 1000 / n, 100 * ps / pt }'
        done
    done
    printf '(total: iteration 1 submitted -> last iteration done; start-up: time in which a task was between container launch and its user code)\n'
    printf 'CSV: %s/results.csv, %s/runs.csv\n' "$out" "$out"
    for png in "${pngs[@]}"; do printf 'PNG: %s\n' "$png"; done
    printf 'benchmark wall time (cluster start to here): %s\n' \
        "$(awk -v s="$bench_start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.0f s", e - s }')"
} | tee "$out/summary.txt"
