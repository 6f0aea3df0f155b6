#!/usr/bin/env bash
# iterative.sh -- iterative MapReduce jobs (PageRank, K-means: one job per iteration, so every
# iteration pays its job's start-up again) in four modes, side by side on ONE real one-machine
# cluster (ResourceManager, JobHistoryServer, NODEMANAGERS NodeManagers, one pool per NodeManager
# under one mpirun; the same YARN configuration for all modes), interleaved (the order of the modes
# rotates from round to round):
#   stock   Hadoop's stock launches: tasks AND the MRAppMaster opt out of the pool
#           (JVMREUSE_POOL=off in mapreduce.map.env, mapreduce.reduce.env, yarn.app.mapreduce.am.env),
#           -Dmapreduce.job.ubertask.enable=false (explicit, so that no cluster default changes it)
#   uber    the same opt-outs with -Dmapreduce.job.ubertask.enable=true: Hadoop's uber mode, every task
#           inside the job's MRAppMaster (at most 9 maps and 1 reducer, input under a block)
#   pool    JVMREUSE_POOL=yes for tasks and the MRAppMaster, plus POOL_OPTS: the pool cluster's
#           defaults (Hadoop's: uber mode off), every task in a slot of its own, the AM in a slot
#   pooled-uber  the pool with -Dmapreduce.job.ubertask.enable=true: small jobs run their tasks
#           one after another inside their AM in a slot (uber mode's semantics, on request only)
# Workloads: pagerank, kmeans and pagerank-large (LARGE_PARTS input parts and LARGE_REDUCERS reducers,
# too large for uber mode: stock and pool only; it runs after the small ones).
#
# Per (workload, iteration count, mode): ROUNDS runs; every run's result is checked against the
# single-process reference (verify-pagerank / verify-kmeans) and a wrong result ends the script
# with status 1; so does an uber or pooled-uber run whose jobs did not run uber (or a stock or pool
# run whose jobs did),
# as the job history records it. Measured by the workloads' driver (docs/workloads.md, "Timings"):
# total time from iteration 1's submission to the last iteration's end (PageRank's set-up job not
# counted) and task start-up time within it (the union of the tasks' launch -> user code intervals);
# after each run, `breakdown` splits every job into phases (submission, AM allocation, AM start,
# first task allocation, task launches, task work, commit, completion; the AM containers' launches
# from the NodeManagers' logs). Prints medians per mode, the ratios stock/pool and uber/pool, start-up
# per iteration, the medians of each phase per iteration at the largest iteration count, and as the
# very last line:
#   iterative: N iterations: pagerank pool/uber X.XXx pool/stock Y.YYx pooled-uber/uber Z.ZZx; kmeans ...
# (N: the largest iteration count run; pool/uber is uber's median total time divided by the pool's,
# > 1: the pool is faster; pooled-uber/uber is uber's over pooled-uber's; n/a where a workload or
# mode did not run).
#
# Writes into OUT_DIR:
#   results.csv                 the driver's rows (workload,iterations,mode,total_ms,startup_ms; the
#                               workload is the driver's command: pagerank-large rows say pagerank)
#   runs.csv                    one row per run, with round, label, client wall time, verification
#   summary.txt                 the tables printed at the end and the last line
#   WORKLOAD-compare.png        `chart compare` of runs.csv: total time per iteration count and mode
#   WORKLOAD-Nit-MODE-timeline.png  `chart timeline` of round 1 at the largest iteration count N,
#                               with each job's path outside its tasks
#   timings/                    per run: the driver's task, iteration and job CSVs and timeline PNG,
#                               LABEL-breakdown.csv and LABEL-breakdown.txt (the breakdown's table)
#
# Settings (environment):
#   WORKLOADS          "pagerank kmeans pagerank-large"   which workloads, in this order
#   MODES              "stock uber pool pooled-uber"   which modes (pagerank-large leaves both uber
#                                          modes out)
#   ITERATIONS         "1 2 4 8"           PageRank iteration counts
#   KMEANS_ITERATIONS  $ITERATIONS         K-means iteration counts
#   LARGE_ITERATIONS   "4"                 pagerank-large iteration counts
#   ROUNDS             3                   counted runs per (workload, iterations, mode)
#   WARMUP             1                   1: one uncounted 1-iteration run per workload and mode first
#   GRAPH_NODES        20000               generate-graph --nodes (mean degree 8, 4 parts)
#   POINTS             50000               generate-points --points, with KMEANS_K (8), KMEANS_D (4)
#   LARGE_GRAPH_NODES  100000              pagerank-large's graph, in LARGE_PARTS (8) parts
#   REDUCERS           1                   --reducers of pagerank and kmeans (uber mode runs at most
#                                          one reducer: more with uber or pooled-uber in MODES is refused)
#   LARGE_REDUCERS     4                   --reducers of pagerank-large
#   POOL_OPTS          ""                  more hadoop options of the pool runs, split at blanks
#   NODEMANAGERS       2                   (on one host; across hosts, one per host)
#   HOSTS              1                   N > 1: the same comparison on a cluster across N separate
#                                          hosts of this machine (needs root): an sbatch job on the
#                                          multi-host testbed's Slurm, ResourceManager on n1, one
#                                          NodeManager and one pool per host (lib/bench/hosts.sh);
#                                          the last line then reads "iterative across N hosts: ..."
#                                          (on 3.x "iterative across N hosts (hadoop V): ...")
#                                          without pooled-uber
#   LINK_RATE          (none)              with HOSTS: every host's link shaped to it (tc tbf), e.g. 1gbit
#   JVMREUSE_HADOOP_VERSION  2.2.0         the cluster's Hadoop (jvmreuse-cluster --hadoop-version); on
#                                          3.x the modes default to "stock uber pool"
#                                          (pooled-uber when MODES asks) and the last line reads
#                                          "iterative (hadoop V): ..." without pooled-uber (issue 31's form)
#   OUT_DIR            build/bench/iterative (relative to the repository)
#   KEEP=1             keeps the cluster dir (${TMPDIR:-/tmp}/jvmreuse-bench-iterative.*, across hosts
#                      /var/tmp/jvmreuse-bench-iterative.*) with its logs
#
# Example: WORKLOADS="pagerank kmeans" ITERATIONS="1 2" ROUNDS=1 WARMUP=0 GRAPH_NODES=2000 POINTS=5000 \
#              job-scripts/bench/iterative.sh
set -euo pipefail
# --help: the comment above, before anything runs.
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=job-scripts/lib/bench/cluster.sh
source "$repo/job-scripts/lib/bench/cluster.sh"
workloads=${WORKLOADS:-pagerank kmeans pagerank-large}
hadoop_version=${JVMREUSE_HADOOP_VERSION:-2.2.0}
if [[ $hadoop_version == 2.* ]]; then
    modes=${MODES:-stock uber pool pooled-uber}
else
    modes=${MODES:-stock uber pool}
fi
pr_iterations=${ITERATIONS:-1 2 4 8}
km_iterations=${KMEANS_ITERATIONS:-$pr_iterations}
large_iterations=${LARGE_ITERATIONS:-4}
rounds=${ROUNDS:-3}
warmup=${WARMUP:-1}
graph_nodes=${GRAPH_NODES:-20000}
points=${POINTS:-50000}
kmeans_k=${KMEANS_K:-8}
kmeans_d=${KMEANS_D:-4}
large_nodes=${LARGE_GRAPH_NODES:-100000}
large_parts=${LARGE_PARTS:-8}
reducers=${REDUCERS:-1}
large_reducers=${LARGE_REDUCERS:-4}
read -r -a pool_opts <<<"${POOL_OPTS:-}"
nodemanagers=${NODEMANAGERS:-2}
out=${OUT_DIR:-$repo/build/bench/iterative}
jar=$repo/workloads/target/workloads-0.1.0-SNAPSHOT.jar

log() { printf '[iterative] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[[ -f $jar && -d $repo/workloads/target/lib ]] || die "no $jar: run job-scripts/setup.sh first"
for n in $pr_iterations $km_iterations $large_iterations $rounds $graph_nodes $points $kmeans_k $kmeans_d \
    $large_nodes $large_parts $reducers $large_reducers; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "not a positive number: '$n' (check ITERATIONS, ROUNDS, ...)"
done
[[ $warmup == [01] ]] || die "WARMUP: 0 or 1 (got '$warmup')"
for w in $workloads; do
    [[ $w == pagerank || $w == kmeans || $w == pagerank-large ]] ||
        die "WORKLOADS: unknown workload '$w' (pagerank, kmeans, pagerank-large)"
done
for m in $modes; do
    [[ $m == stock || $m == uber || $m == pool || $m == pooled-uber ]] ||
        die "MODES: unknown mode '$m' (stock, uber, pool, pooled-uber)"
done
[[ -n $modes ]] || die "MODES: no mode"
if [[ " $modes " == *" uber "* || " $modes " == *" pooled-uber "* ]] && ((reducers > 1)); then
    die "REDUCERS=$reducers: uber mode runs at most one reducer (REDUCERS=1, or MODES without uber)"
fi

# The iteration counts of workload $1.
counts_of() {
    case $1 in
    pagerank) echo "$pr_iterations" ;;
    kmeans) echo "$km_iterations" ;;
    pagerank-large) echo "$large_iterations" ;;
    esac
}

# The modes of workload $1 (pagerank-large is too large for uber mode: uber is stock for it, and
# pooled-uber is pool).
modes_of() {
    local m
    for m in $modes; do
        if [[ $1 != pagerank-large || ($m != uber && $m != pooled-uber) ]]; then printf '%s ' "$m"; fi
    done
}

# The words of $1 separated by ", ".
commas() { local words=$1; printf '%s' "${words// /, }"; }

# The largest of the numbers in $1.
largest() { tr -s ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | tail -n 1; }

bench_cluster_dir iterative

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/timings" "$out/results.csv" "$out/runs.csv" "$out/summary.txt" "$out"/*-compare.png "$out"/*-timeline.png
mkdir -p "$out/timings"
printf 'workload,iterations,mode,round,label,wall_ms,total_ms,startup_ms,verified\n' >"$out/runs.csv"

# The generators, checks, charts and breakdowns run in a plain JVM (no job client needed).
wl_java() { java -Djava.awt.headless=true -cp "$jar:$repo/workloads/target/lib/*" org.jvmreuse.workloads.Main "$@"; }

bench_start=$EPOCHREALTIME
log "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
bench_cluster_start --nodemanagers "$nodemanagers"
log "cluster up after $(awk -v s="$bench_start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.0f s", e - s }')"
bench_cluster_nm_logs
if ((HOSTS > 1)); then nodemanagers=$HOSTS; fi

# Inputs, generated once (deterministic: the same settings give the same bytes).
mkdir -p "$dir/data"
generate() {
    local name=$1
    shift
    wl_java "$@" >"$dir/$name.log" 2>&1 || { tail -n 20 "$dir/$name.log" >&2; die "$name failed"; }
}
for w in $workloads; do
    case $w in
    pagerank) generate generate-graph generate-graph --output "$dir/data/graph" --nodes "$graph_nodes" ;;
    kmeans) generate generate-points generate-points --output "$dir/data/points" --points "$points" --k "$kmeans_k" \
        --dimensions "$kmeans_d" ;;
    pagerank-large) generate generate-graph-large generate-graph --output "$dir/data/graph-large" \
        --nodes "$large_nodes" --parts "$large_parts" ;;
    esac
done

# The hadoop options of mode $1, into the array `opts`.
mode_opts() {
    local switch=off
    if [[ $1 == pool* ]]; then switch=yes; fi
    opts=("-Dmapreduce.map.env=JVMREUSE_POOL=$switch" "-Dmapreduce.reduce.env=JVMREUSE_POOL=$switch"
        "-Dyarn.app.mapreduce.am.env=JVMREUSE_POOL=$switch")
    case $1 in
    stock) opts+=(-Dmapreduce.job.ubertask.enable=false) ;;
    uber) opts+=(-Dmapreduce.job.ubertask.enable=true) ;;
    pool) opts+=(${pool_opts[@]+"${pool_opts[@]}"}) ;;
    pooled-uber) opts+=(-Dmapreduce.job.ubertask.enable=true) ;;
    esac
}

# Ends the script unless the run $1 (mode $2) ran as its mode says: an uber or pooled-uber run's jobs
# all uberized, a stock or pool run's none (from the job history, as the driver recorded it in LABEL-jobs.csv).
check_uber() {
    local label=$1 mode=$2 jobs=$out/timings/$1-jobs.csv want wrong
    [[ -s $jobs ]] || die "$label: no $jobs (the driver asks the JobHistoryServer after the run: see $dir/$label.log)"
    case $mode in
    uber | pooled-uber) want=true ;;
    *) want=false ;;
    esac
    wrong=$(awk -F, -v want="$want" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["uberized"] != want { printf "%s%s", sep, $col["job_id"]; sep = " " }' "$jobs")
    if [[ -n $wrong ]]; then
        KEEP=1
        if [[ $want == true ]]; then
            die "UBER RUN DID NOT RUN UBER: $label: the job history says jobs $wrong were not uberized (Hadoop's limits:" \
                "mapreduce.job.ubertask.maxmaps maps, 1 reducer, input under a block, AM memory >= task memory; the AM's syslog says why)"
        fi
        die "$label: jobs $wrong ran uber although $mode runs do not ask for it (mapreduce.job.ubertask.enable)"
    fi
}

# One run: $1 workload, $2 iterations, $3 stock|uber|pool|pooled-uber, $4 round (0: warm-up, not counted).
run_one() {
    local w=$1 n=$2 mode=$3 round=$4 start end label input rc cmd=$1 job_reducers=$reducers opts
    label=$w-${n}it-$mode-r$round
    local output=$dir/data/out-$label runlog=$dir/$label.log
    mode_opts "$mode"
    case $w in
    pagerank) input=$dir/data/graph ;;
    kmeans) input=$dir/data/points ;;
    pagerank-large) cmd=pagerank input=$dir/data/graph-large job_reducers=$large_reducers ;;
    esac
    local args=(--output "$output" --iterations "$n" --reducers "$job_reducers" --label "$label" --timings "$out/timings")
    if [[ $w == kmeans ]]; then args+=(--k "$kmeans_k"); fi
    if ((round > 0)); then
        args+=(--results "$out/results.csv" --mode "$mode")
    fi
    start=$EPOCHREALTIME
    rc=0
    ${bench_client[@]+"${bench_client[@]}"} hadoop jar "$jar" "$cmd" "${opts[@]}" --input "$input" "${args[@]}" >"$runlog" 2>&1 || rc=$?
    end=$EPOCHREALTIME
    if ((rc != 0)); then
        log "ERROR: $label failed (status $rc); the end of its output:"
        tail -n 30 "$runlog" >&2
        KEEP=1
        exit 1
    fi
    # The result against the single-process reference.
    local check=$dir/$label.verify
    case $cmd in
    pagerank) wl_java verify-pagerank --graph "$input" --output "$output" >"$check" 2>&1 || rc=$? ;;
    kmeans) wl_java verify-kmeans --input "$input" --output "$output" >"$check" 2>&1 || rc=$? ;;
    esac
    if ((rc != 0)); then
        log "ERROR: WRONG RESULT: $label does not match the reference (verify-$cmd status $rc):"
        sed 's/^/    /' "$check" >&2
        KEEP=1
        exit 1
    fi
    check_uber "$label" "$mode"
    wl_java breakdown --label "$label" --timings "$out/timings" --nm-logs "${nm_logs[@]}" \
        >"$out/timings/$label-breakdown.txt" 2>&1 ||
        log "warning: no breakdown of $label: $(tail -n 1 "$out/timings/$label-breakdown.txt")"
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
    read -r -a wmodes <<<"$(modes_of "$w")"
    if ((warmup)); then
        for mode in "${wmodes[@]}"; do
            run_one "$w" 1 "$mode" 0
        done
    fi
    # The order of the modes rotates: stock uber pool, uber pool stock, pool stock uber, ...
    turn=0
    for ((round = 1; round <= rounds; round++)); do
        for n in $(counts_of "$w"); do
            k=$((turn++ % ${#wmodes[@]}))
            for mode in "${wmodes[@]:k}" "${wmodes[@]:0:k}"; do
                run_one "$w" "$n" "$mode" "$round"
            done
        done
    done
done

# The median of numbers on stdin, "nan" if none.
median_of() {
    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Median of the runs.csv column named $4 for workload $1, iterations $2, mode $3.
median() {
    awk -F, -v w="$1" -v n="$2" -v m="$3" -v c="$4" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == w && $2 == n && $3 == m { print $col[c] }' "$out/runs.csv" | median_of
}

# Median of the breakdown column $1 over the iterations (not set-up jobs) in the CSV files $2...
phase_median() {
    local column=$1
    shift
    awk -F, -v c="$column" 'FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["iteration"] > 0 && $col[c] != "" { print $col[c] }' "$@" | median_of
}

# $1 / $2 as "1.23x", or n/a.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b == "nan" || b <= 0) print "n/a"; else printf "%.2fx\n", a / b }'; }

# Charts: comparison per workload; timelines of round 1 at the largest iteration count.
pngs=()
for w in $workloads; do
    read -r -a wmodes <<<"$(modes_of "$w")"
    png=$out/$w-compare.png
    if wl_java chart compare --csv "$out/runs.csv" --workload "$w" --out "$png" \
        --title "$w: $(commas "${wmodes[*]}") (median of $rounds)" >"$dir/chart.log" 2>&1; then
        pngs+=("$png")
    else
        log "warning: no comparison chart for $w: $(tail -n 1 "$dir/chart.log")"
    fi
    max=$(largest "$(counts_of "$w")")
    for mode in "${wmodes[@]}"; do
        png=$out/$w-${max}it-$mode-timeline.png
        if wl_java chart timeline --csv "$out/timings/$w-${max}it-$mode-r1-tasks.csv" --nm-logs "${nm_logs[@]}" \
            --out "$png" --title "$w, $max iterations, $mode" >"$dir/chart.log" 2>&1; then
            pngs+=("$png")
        else
            log "warning: no timeline for $w $max iterations $mode: $(tail -n 1 "$dir/chart.log")"
        fi
    done
done

# The last line: pool/uber, pool/stock and pooled-uber/uber of pagerank and kmeans at the largest
# iteration count run (across hosts: pool/uber and pool/stock, as issue 29 asks).
last_line() {
    local all="" w parts=()
    for w in pagerank kmeans; do
        if [[ " $workloads " == *" $w "* ]]; then all+=" $(counts_of "$w")"; fi
    done
    local n
    n=$(largest "${all:-$pr_iterations}")
    for w in pagerank kmeans; do
        local pool uber stock pooled_uber
        pool=$(median "$w" "$n" pool total_ms)
        uber=$(median "$w" "$n" uber total_ms)
        stock=$(median "$w" "$n" stock total_ms)
        pooled_uber=$(median "$w" "$n" pooled-uber total_ms)
        if ((HOSTS > 1)) || [[ $hadoop_version != 2.* ]]; then
            parts+=("$w pool/uber $(ratio "$uber" "$pool") pool/stock $(ratio "$stock" "$pool")")
        else
            parts+=("$w pool/uber $(ratio "$uber" "$pool") pool/stock $(ratio "$stock" "$pool") pooled-uber/uber $(ratio "$uber" "$pooled_uber")")
        fi
    done
    if ((HOSTS > 1)) && [[ $hadoop_version != 2.* ]]; then
        printf 'iterative across %s hosts (hadoop %s): %s iterations: %s; %s\n' "$HOSTS" "$hadoop_version" "$n" "${parts[0]}" "${parts[1]}"
    elif ((HOSTS > 1)); then
        printf 'iterative across %s hosts: %s iterations: %s; %s\n' "$HOSTS" "$n" "${parts[0]}" "${parts[1]}"
    elif [[ $hadoop_version != 2.* ]]; then
        printf 'iterative (hadoop %s): %s iterations: %s; %s\n' "$hadoop_version" "$n" "${parts[0]}" "${parts[1]}"
    else
        printf 'iterative: %s iterations: %s; %s\n' "$n" "${parts[0]}" "${parts[1]}"
    fi
}

{
    read -r -a all_modes <<<"$modes"
    printf '\nIterative jobs, %s: one cluster, %d NodeManagers%s; median of %d round(s), every result verified\n' \
        "$(commas "${all_modes[*]}")" "$nodemanagers" "$( ((HOSTS == 1)) || echo " on $HOSTS hosts${LINK_RATE:+ (links at $LINK_RATE)}")" "$rounds"
    inputs=()
    for w in $workloads; do
        case $w in
        pagerank) inputs+=("PageRank $graph_nodes nodes, $reducers reducer(s)") ;;
        kmeans) inputs+=("K-means $points points, k=$kmeans_k, d=$kmeans_d, $reducers reducer(s)") ;;
        pagerank-large) inputs+=("pagerank-large $large_nodes nodes in $large_parts parts, $large_reducers reducers") ;;
        esac
    done
    printf 'inputs: %s. POOL_OPTS: %s. load average at the end: %s\n' "$(printf '%s; ' "${inputs[@]}" | sed 's/; $//')" \
        "${POOL_OPTS:-(none)}" "$(cut -d' ' -f1-3 /proc/loadavg)"
    header=$(printf '%-14s %5s |' workload iter)
    for m in "${all_modes[@]}"; do header+=$(printf ' %8s' "$m"); done
    header+=$(printf ' | %10s %10s %9s |' stock/pool uber/pool "pool:less")
    for m in "${all_modes[@]}"; do header+=$(printf ' %-18s' "$m start-up/it"); done
    printf '%s\n' "${header%"${header##*[! ]}"}"
    declare -A total startup
    for w in $workloads; do
        for n in $(counts_of "$w"); do
            line=$(printf '%-14s %5d |' "$w" "$n")
            for m in stock uber pool "${all_modes[@]}"; do
                total[$m]=$(median "$w" "$n" "$m" total_ms)
                startup[$m]=$(median "$w" "$n" "$m" startup_ms)
            done
            for m in "${all_modes[@]}"; do
                line+=$(awk -v t="${total[$m]}" 'BEGIN { if (t == "nan") printf " %8s", "n/a"; else printf " %7.1fs", t / 1000 }')
            done
            line+=$(printf ' | %10s %10s' "$(ratio "${total[stock]}" "${total[pool]}")" "$(ratio "${total[uber]}" "${total[pool]}")")
            line+=$(awk -v s="${total[stock]}" -v p="${total[pool]}" 'BEGIN {
                if (s == "nan" || p == "nan") printf " %9s |", "n/a"; else printf " %8.0f%% |", (1 - p / s) * 100 }')
            for m in "${all_modes[@]}"; do
                line+=$(awk -v s="${startup[$m]}" -v t="${total[$m]}" -v n="$n" 'BEGIN {
                    printf " %-18s", t == "nan" ? "n/a" : sprintf("%5.2fs (%3.0f%%)", s / 1000 / n, 100 * s / t) }')
            done
            printf '%s\n' "${line%"${line##*[! ]}"}"
        done
    done
    printf '(total: iteration 1 submitted -> last iteration done; ratios: the median total of stock or uber over the pool'"'"'s;\n'
    printf ' start-up/it: time in which a task was between container launch and its user code, per iteration, and its share)\n'

    printf '\nPer-iteration phases at the largest iteration count, ms: medians over the counted rounds'"'"' iterations\n'
    printf '(AM alloc ends at the AM container'"'"'s launch in the NodeManager log; AM to main: that launch -> MRAppMaster'"'"'s main,\n'
    printf ' part of AM start; medians do not add up to the median client time)\n'
    columns=(between_ms submission_ms am_allocation_ms am_start_ms task_allocation_ms task_launches_ms task_work_ms
        commit_ms completion_ms client_ms am_launch_to_main_ms)
    printf '%-14s %5s %-11s | %8s %8s %8s %8s %10s %8s %8s %8s %8s | %8s %10s\n' workload iter mode between submit \
        "AM alloc" "AM start" "task alloc" launches work commit seen client "AM to main"
    for w in $workloads; do
        max=$(largest "$(counts_of "$w")")
        read -r -a wmodes <<<"$(modes_of "$w")"
        for mode in "${wmodes[@]}"; do
            files=()
            for ((round = 1; round <= rounds; round++)); do
                f=$out/timings/$w-${max}it-$mode-r$round-breakdown.csv
                if [[ -f $f ]]; then files+=("$f"); fi
            done
            if ((${#files[@]} == 0)); then continue; fi
            values=()
            for c in "${columns[@]}"; do
                values+=("$(phase_median "$c" "${files[@]}" | awk '{ if ($1 == "nan") print "n/a"; else printf "%.0f\n", $1 }')")
            done
            printf '%-14s %5d %-11s | %8s %8s %8s %8s %10s %8s %8s %8s %8s | %8s %10s\n' "$w" "$max" "$mode" "${values[@]}"
        done
    done
    printf '(per run: %s/timings/LABEL-breakdown.txt and .csv)\n' "$out"

    printf 'CSV: %s/results.csv, %s/runs.csv\n' "$out" "$out"
    for png in "${pngs[@]}"; do printf 'PNG: %s\n' "$png"; done
    printf 'benchmark wall time (cluster start to here): %s\n' \
        "$(awk -v s="$bench_start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.0f s", e - s }')"
    last_line
} | tee "$out/summary.txt"
