#!/usr/bin/env bash
# allocation.sh -- what a batch user pays around the jobs, with and without pools, side by side:
#   ready   `jvmreuse-cluster start` (NODEMANAGERS NodeManagers) until it returns ready, stock and
#           --pool interleaved (the order alternates from round to round), then the first job on
#           it (the examples' pi, FIRST_JOB_MAPS maps) as soon as it is ready: with the pool's
#           default the cluster is ready while its slots still warm up, and that first job shows
#           whether it pays for it; then the cluster is stopped
#   sbatch  (SBATCH=1) job-scripts/sbatch/jvmreuse-hadoop.sbatch with its defaults on the Slurm
#           testbed (SLURM_NODES nodes; testbed/jvmreuse-slurm-testbed, started here if it does not
#           run and stopped again), PageRank of GRAPH_NODES nodes for ITERATIONS iterations, results
#           verified by the job, JVMREUSE_POOL=0 and 1 interleaved; time from the allocation's start
#           (scontrol's StartTime) to the job's end (EndTime), one-second resolution
# MODES may add pool-cold, pools whose slots serve at once and warm with their first tasks
# (JVMREUSE_WARMUP_MAIN=none: the batch jobs' default), and pool-warm, whose slots first run
# Hadoop's TaskWarmup (JVMREUSE_WARMUP_MAIN=task: jvmreuse-cluster's default).
# Medians of ROUNDS rounds with the spread. Last line:
#   allocation: ready pool/stock X.XXx; sbatch pagerank N iterations stock/pool Y.YYx
# (ready pool/stock: the pool cluster's median time to ready over the stock cluster's, <= 1 is as
# fast; stock/pool: the stock job's median allocation time over the pooled one's; n/a if not run).
#
# Settings (environment):
#   ROUNDS          3        rounds of each part
#   MODES           "stock pool"  the modes compared, interleaved (order rotating per round): stock,
#                            pool (each tool's defaults), pool-cold, pool-warm
#   NODEMANAGERS    2        NodeManagers of the one-machine cluster (slots: their default)
#   FIRST_JOB_MAPS  2        maps of the first job
#   SBATCH          1        0: the one-machine part only
#   SLURM_NODES     2        nodes of the sbatch job
#   SLURM_MEMORY_MB 8192     RealMemory of each testbed node this script starts (the job checks that
#                            its containers and daemons fit in it)
#   GRAPH_NODES     20000    JVMREUSE_PAGERANK_NODES of the sbatch job
#   ITERATIONS      8        JVMREUSE_ITERATIONS of the sbatch job
#   OUT_DIR         build/bench/allocation (relative to the repository): ready.csv, sbatch.csv,
#                   summary.txt and the sbatch jobs' output dirs
#
# Example: ROUNDS=1 SBATCH=0 job-scripts/bench/allocation.sh
set -euo pipefail
# --help: the comment above, before anything runs.
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
log() { printf '[allocation] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

rounds=${ROUNDS:-3}
nodemanagers=${NODEMANAGERS:-2}
first_maps=${FIRST_JOB_MAPS:-2}
sbatch=${SBATCH:-1}
slurm_nodes=${SLURM_NODES:-2}
slurm_memory=${SLURM_MEMORY_MB:-8192}
graph_nodes=${GRAPH_NODES:-20000}
iterations=${ITERATIONS:-8}
out=${OUT_DIR:-$repo/build/bench/allocation}
read -r -a modes <<<"${MODES:-stock pool}"
for mode in "${modes[@]}"; do
    [[ $mode =~ ^(stock|pool|pool-cold|pool-warm)$ ]] || die "MODES: stock, pool, pool-cold, pool-warm (got '$mode')"
done
[[ " ${modes[*]} " == *" stock "* && " ${modes[*]} " == *" pool "* ]] || die "MODES must name stock and pool (the last line's ratios)"
for n in "$rounds" "$nodemanagers" "$first_maps" "$slurm_nodes" "$slurm_memory" "$graph_nodes" "$iterations"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "not a positive number: '$n' (check ROUNDS, NODEMANAGERS, ...)"
done
[[ $sbatch == [01] ]] || die "SBATCH: 0 or 1 (got '$sbatch')"
[[ $out == /* ]] || out=$repo/$out
mkdir -p "$out"

"$repo/job-scripts/setup.sh" >/dev/null
examples=$repo/hadoop-patch/target/hadoop/lib/hadoop-mapreduce-examples-2.2.0.jar
[[ -f $examples ]] || die "no $examples: run job-scripts/setup.sh"

cluster_dir=''
testbed_dir=''
cleanup() {
    if [[ -n $cluster_dir ]]; then
        "$repo/job-scripts/bin/jvmreuse-cluster" stop --dir "$cluster_dir" >/dev/null 2>&1 || true
        rm -rf "$cluster_dir"
    fi
    if [[ -n $testbed_dir ]]; then
        "$repo/job-scripts/testbed/jvmreuse-slurm-testbed" stop --dir "$testbed_dir" >/dev/null 2>&1 || true
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { printf '%s' "$EPOCHREALTIME"; }
ms_since() { awk -v s="$1" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.0f", (e - s) * 1000 }'; }

# The environment of mode $1 (for env): its slots' warm-up.
mode_env() {
    case $1 in
        pool-cold) printf '%s\n' JVMREUSE_WARMUP_MAIN=none ;;
        pool-warm) printf '%s\n' JVMREUSE_WARMUP_MAIN=task ;;
    esac
}

# The modes in round $1's order: rotated by one per round.
round_order() {
    local i n=${#modes[@]}
    order=()
    for ((i = 0; i < n; i++)); do order+=("${modes[(i + $1 - 1) % n]}"); done
}

# One cluster start in mode $1 (stock or a pool mode), round $2: ready time and first job time into ready.csv.
ready_round() {
    local mode=$1 round=$2 start ready first args=() rc=0 env=()
    [[ $mode == stock ]] || args=(--pool)
    mapfile -t env < <(mode_env "$mode")
    cluster_dir=$(mktemp -d "${TMPDIR:-/tmp}/jvmreuse-bench-alloc.XXXXXX")
    start=$(now)
    env ${env[@]+"${env[@]}"} "$repo/job-scripts/bin/jvmreuse-cluster" start --dir "$cluster_dir" --nodemanagers "$nodemanagers" "${args[@]}" \
        >"$out/ready-$mode-r$round.log" 2>&1 || { tail -n 20 "$out/ready-$mode-r$round.log" >&2; die "$mode cluster did not start"; }
    ready=$(ms_since "$start")
    start=$(now)
    "$cluster_dir/bin/hadoop" jar "$examples" pi "$first_maps" 1000 >"$out/first-job-$mode-r$round.log" 2>&1 || rc=$?
    first=$(ms_since "$start")
    if ((rc != 0)) || ! grep -q 'Estimated value of Pi' "$out/first-job-$mode-r$round.log"; then
        die "the first job on the $mode cluster failed: $out/first-job-$mode-r$round.log"
    fi
    log "round $round, $mode: ready in $ready ms, first job $first ms"
    printf '%s,%s,%s,%s\n' "$mode" "$round" "$ready" "$first" >>"$out/ready.csv"
    "$repo/job-scripts/bin/jvmreuse-cluster" stop --dir "$cluster_dir" >/dev/null 2>&1 || true
    rm -rf "$cluster_dir"
    cluster_dir=''
}

# Seconds since the epoch of scontrol's time field $2 (e.g. StartTime) of job $1.
job_time() {
    local t
    t=$(scontrol show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p")
    date -d "$t" +%s
}

# One sbatch PageRank in mode $1, round $2: allocation time into sbatch.csv.
sbatch_round() {
    local mode=$1 round=$2 id state pool=1 env=()
    [[ $mode != stock ]] || pool=0
    mapfile -t env < <(mode_env "$mode")
    # Submitted from the jobs' directory: a job's output directory goes under its submit directory.
    id=$(cd "$out/jobs" && env ${env[@]+"${env[@]}"} sbatch --parsable --chdir="$out/jobs" -N "$slurm_nodes" \
        --export="ALL,JVMREUSE_HOME=$repo,JVMREUSE_POOL=$pool,JVMREUSE_WORKLOAD=pagerank,JVMREUSE_PAGERANK_NODES=$graph_nodes,JVMREUSE_ITERATIONS=$iterations" \
        "$repo/job-scripts/sbatch/jvmreuse-hadoop.sbatch")
    while squeue -h -j "$id" 2>/dev/null | grep -q .; do sleep 1; done
    state=$(scontrol show job "$id" | tr ' ' '\n' | sed -n 's/^JobState=//p')
    [[ $state == COMPLETED ]] || die "sbatch job $id ($mode) ended $state: see $out/jobs"
    local total=$(($(job_time "$id" EndTime) - $(job_time "$id" StartTime)))
    log "round $round, sbatch $mode: job $id, $total s from allocation start to results"
    printf '%s,%s,%s,%s\n' "$mode" "$round" "$id" "$total" >>"$out/sbatch.csv"
}

# Median and range of column $3 of CSV $1 rows whose mode is $2: "median min max", or "nan".
stats() {
    awk -F, -v m="$2" -v c="$3" '$1 == m { print $c }' "$1" | sort -n |
        awk '{ v[NR] = $1 } END { if (NR == 0) { print "nan"; exit }
            med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print med, v[1], v[NR] }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b == "nan" || b == 0) print "n/a"; else printf "%.2fx", a / b }'; }

log "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$out/ready.csv"
for ((round = 1; round <= rounds; round++)); do
    round_order "$round"
    for mode in "${order[@]}"; do ready_round "$mode" "$round"; done
done

: >"$out/sbatch.csv"
if ((sbatch)); then
    if ! command -v sbatch >/dev/null || ! "$repo/job-scripts/testbed/jvmreuse-slurm-testbed" status >/dev/null 2>&1; then
        testbed_dir=$(mktemp -d "${TMPDIR:-/tmp}/jvmreuse-bench-slurm.XXXXXX")
        "$repo/job-scripts/testbed/jvmreuse-slurm-testbed" start --dir "$testbed_dir" --nodes "$slurm_nodes" \
            --memory-mb "$slurm_memory" >"$out/testbed.log" 2>&1 ||
            { tail -n 20 "$out/testbed.log" >&2; die "the Slurm testbed did not start"; }
        eval "$("$repo/job-scripts/testbed/jvmreuse-slurm-testbed" env --dir "$testbed_dir")"
    fi
    mkdir -p "$out/jobs"
    for ((round = 1; round <= rounds; round++)); do
        round_order "$round"
        for mode in "${order[@]}"; do sbatch_round "$mode" "$round"; done
    done
fi

{
    printf '\nTime to ready, %d NodeManagers, %d rounds interleaved (median, range; ms):\n' "$nodemanagers" "$rounds"
    for mode in "${modes[@]}"; do
        read -r rm rlo rhi <<<"$(stats "$out/ready.csv" "$mode" 3)"
        read -r fm flo fhi <<<"$(stats "$out/ready.csv" "$mode" 4)"
        printf '  %-9s ready %6s (%s-%s)   first job (pi, %d maps) %6s (%s-%s)\n' "$mode" "$rm" "$rlo" "$rhi" "$first_maps" "$fm" "$flo" "$fhi"
    done
    sbatch_line=n/a
    if ((sbatch)); then
        printf 'sbatch PageRank %d nodes, %d iterations, %d nodes, from allocation start to results (median, range; s):\n' \
            "$graph_nodes" "$iterations" "$slurm_nodes"
        for mode in "${modes[@]}"; do
            read -r sm slo shi <<<"$(stats "$out/sbatch.csv" "$mode" 4)"
            printf '  %-9s %5s (%s-%s)\n' "$mode" "$sm" "$slo" "$shi"
        done
        sbatch_line=$(ratio "$(stats "$out/sbatch.csv" stock 4 | cut -d' ' -f1)" "$(stats "$out/sbatch.csv" pool 4 | cut -d' ' -f1)")
    fi
    printf 'load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
    printf 'allocation: ready pool/stock %s; sbatch pagerank %d iterations stock/pool %s\n' \
        "$(ratio "$(stats "$out/ready.csv" pool 3 | cut -d' ' -f1)" "$(stats "$out/ready.csv" stock 3 | cut -d' ' -f1)")" \
        "$iterations" "$sbatch_line"
} | tee "$out/summary.txt"
