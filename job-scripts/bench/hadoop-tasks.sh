#!/usr/bin/env bash
# hadoop-tasks.sh -- MapReduce tasks in pool slots against Hadoop's stock launch, side by side on
# one real one-machine cluster (same YARN configuration; the stock runs opt out of the pool with
# JVMREUSE_POOL=off in the task environment), interleaved, measuring
#   (a) per task: container launch (the NodeManager's LOCALIZED -> RUNNING) to the task asking
#       the MRAppMaster for work ("JVM with ID ... asked for a task"), from the daemons' logs,
#       for tasks alone (word counts of one file: one map, one reduce) and for tasks starting
#       together (the job of (b));
#   (b) per job: a word count of MAPS input files with 2 reduces, end to end (client wall time).
# The first round of each kind and side is a warm-up and is not counted. Prints medians and ratios.
#
# Settings: ROUNDS (default 3 counted rounds of each kind), MAPS (default 20), NODEMANAGERS (default 2),
#           KEEP=1 keeps the cluster dir.
#
# Example: ROUNDS=1 MAPS=8 job-scripts/bench/hadoop-tasks.sh
set -euo pipefail
# --help: the comment above, before anything runs.
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
rounds=${ROUNDS:-3}
maps=${MAPS:-20}
nodemanagers=${NODEMANAGERS:-2}
examples=$repo/hadoop-patch/target/hadoop/lib/hadoop-mapreduce-examples-2.2.0.jar
# shellcheck source=job-scripts/lib/bench/cluster.sh
source "$repo/job-scripts/lib/bench/cluster.sh"

log() { printf '[hadoop-tasks] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

bench_cluster_dir hadoop
bench_cluster_start --nodemanagers "$nodemanagers"

mkdir -p "$dir/data/in"
for ((i = 0; i < maps; i++)); do
    seq 1 3000 | awk -v f="$i" '{ print "w" ($1 % 97) " f" f " x" ($1 % 13) }' >"$dir/data/in/part-$i.txt"
done

# Milliseconds since midnight of an ISO8601 log time "YYYY-MM-DD HH:MM:SS,mmm" (fields $1 $2).
ms_awk='function ms(d, t,   h) { split(t, h, /[:,]/); return ((h[1] * 60 + h[2]) * 60 + h[3]) * 1000 + h[4] }'

# Appends "launch-to-ask fork-to-ask" (ms) per task of application $1 to file $2: from the
# NodeManager's LOCALIZED -> RUNNING (the launch starts), and from its fork of the container's
# wrapper script ("launchContainer: [nice, ..."; what comes before is the NodeManager's own
# bookkeeping, the same for both sides). The MRAppMaster's log comes from `yarn logs`, once the
# NodeManagers have aggregated it (a few seconds after the job).
task_times() {
    local app=$1 out=$2 am tries=0 id=${1#application_}
    am=$(mktemp "$dir/am.XXXXXX")
    until yarn logs -applicationId "$app" 2>/dev/null | grep 'asked for a task' >"$am"; do
        if ((++tries > 30)); then
            log "ERROR: no MRAppMaster log of $app after 30 s"
            exit 1
        fi
        sleep 1
    done
    cat "$dir"/logs/nodemanager*.log |
        grep -E "Container container_${id}_[0-9]+_[0-9]+ transitioned from LOCALIZED to RUNNING|launchContainer: .*container_${id}_" |
        awk "$ms_awk"'
            NR == FNR { n = split($0, w, " "); for (i = 1; i <= n; i++) if (w[i] ~ /^jvm_/) { split(w[i], j, "_"); ask[j[5] + 0] = ms($1, $2) } next }
            { match($0, /container_[0-9]+_[0-9]+_[0-9]+_[0-9]+/); split(substr($0, RSTART, RLENGTH), c, "_"); id = c[5] + 0
              if (/transitioned/) run[id] = ms($1, $2); else fork[id] = ms($1, $2) }
            END { for (id in ask) if ((id in run) && (id in fork)) print day(ask[id] - run[id]), day(ask[id] - fork[id]) }
            function day(d) { return d < 0 ? d + 86400000 : d }' "$am" - >>"$out"
    rm -f "$am"
}

# Median of column ${2:-1} of file $1.
median() { awk -v c="${2:-1}" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Runs one word count; $1 = kind (single: one input file, one reduce; job: MAPS files, two
# reduces), $2 = pool|stock, $3 = round. Records wall time and application id (not in round 0).
run_job() {
    local kind=$1 side=$2 round=$3 start end app input=$dir/data/in opts=(-Dmapreduce.job.reduces=2)
    local out=$dir/data/out-$kind-$side-$round log=$dir/$kind-$side-$round.log
    if [[ $kind == single ]]; then
        input=$dir/data/in/part-0.txt opts=(-Dmapreduce.job.reduces=1)
    fi
    # the same settings on both sides, so both jobs' configurations are the same size
    local switch=yes
    if [[ $side == stock ]]; then switch=off; fi
    opts+=("-Dmapreduce.map.env=JVMREUSE_POOL=$switch" "-Dmapreduce.reduce.env=JVMREUSE_POOL=$switch")
    start=$EPOCHREALTIME
    hadoop jar "$examples" wordcount "${opts[@]}" "$input" "$out" >"$log" 2>&1 || {
        log "ERROR: the $kind $side job of round $round failed; the end of its output:"
        tail -n 30 "$log" >&2
        exit 1
    }
    end=$EPOCHREALTIME
    app=$(grep -o 'Submitted application application_[0-9_]*' "$log" | awk '{ print $3 }')
    if ((round > 0)); then
        awk -v s="$start" -v e="$end" 'BEGIN { printf "%.0f\n", (e - s) * 1000 }' >>"$dir/$kind-$side.ms"
        printf '%s\n' "$app" >>"$dir/apps-$kind-$side"
    fi
    log "round $round, $kind, $side: $app $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f s", e - s }')"
}

# Interleaved rounds of one kind of job; round 0 is the warm-up. Outputs must match.
run_rounds() {
    local kind=$1 round side order
    for ((round = 0; round <= rounds; round++)); do
        if ((round % 2)); then order=(pool stock); else order=(stock pool); fi
        for side in "${order[@]}"; do
            run_job "$kind" "$side" "$round"
        done
        if ! cmp -s <(cat "$dir/data/out-$kind-stock-$round"/part-*) <(cat "$dir/data/out-$kind-pool-$round"/part-*); then
            log "ERROR: round $round of $kind: the pooled output differs from the stock output"
            exit 1
        fi
    done
}

# Task times of every counted job of one kind and side into $dir/tasks-KIND-SIDE.ms.
collect_task_times() {
    local kind=$1 side app
    for side in stock pool; do
        while read -r app; do
            task_times "$app" "$dir/tasks-$kind-$side.ms"
        done <"$dir/apps-$kind-$side"
        if [[ ! -s $dir/tasks-$kind-$side.ms ]]; then
            log "ERROR: no task times of the $kind $side jobs in the logs; keep the dir with KEEP=1 and look"
            exit 1
        fi
    done
}

# One table row: label, stock value, pool value, unit (ms or s).
row() {
    awk -v l="$1" -v s="$2" -v p="$3" -v u="$4" 'BEGIN {
        d = (u == "s") ? 1000 : 1
        printf "%-60s %9.*f%s %9.*f%s %7.1fx\n", l, (u == "s"), s / d, u, (u == "s"), p / d, u, s / (p > 0 ? p : 1) }'
}

run_rounds single
run_rounds job
collect_task_times single
collect_task_times job

printf '\nMapReduce tasks, stock launch vs pool slots (%d NodeManagers, %d counted rounds each, medians; outputs identical)\n' \
    "$nodemanagers" "$rounds"
printf '%-60s %11s %11s %8s\n' "" "stock" "pool" "ratio"
row "(a) one task alone: container launch -> task asks for work" "$(median "$dir/tasks-single-stock.ms")" \
    "$(median "$dir/tasks-single-pool.ms")" ms
row "    the same from the fork of the container's script" "$(median "$dir/tasks-single-stock.ms" 2)" \
    "$(median "$dir/tasks-single-pool.ms" 2)" ms
row "    in the $maps-map job (tasks starting together)" "$(median "$dir/tasks-job-stock.ms")" \
    "$(median "$dir/tasks-job-pool.ms")" ms
row "(b) wordcount, $maps maps + 2 reduces, end to end" "$(median "$dir/job-stock.ms")" "$(median "$dir/job-pool.ms")" s
row "    wordcount, 1 map + 1 reduce, end to end" "$(median "$dir/single-stock.ms")" "$(median "$dir/single-pool.ms")" s
