#!/usr/bin/env bash
# hadoop-tasks.sh -- MapReduce tasks in pool slots against Hadoop's stock launch, side by side on
# one real one-machine cluster (same YARN configuration; the stock runs opt out of the pool with
# JVMREUSE_POOL=off in the task environment), interleaved, measuring
#   (a) per task: container launch (the NodeManager's LOCALIZED -> RUNNING) to the task asking
#       the MRAppMaster for work ("JVM with ID ... asked for a task"), from the daemons' logs;
#   (b) per job: a word count of MAPS input files with 2 reduces, end to end (client wall time).
# The first round of each side is a warm-up and is not counted. Prints medians and ratios.
#
# Settings: ROUNDS (default 3 counted rounds), MAPS (default 20), NODEMANAGERS (default 2),
#           KEEP=1 keeps the cluster dir.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
rounds=${ROUNDS:-3}
maps=${MAPS:-20}
nodemanagers=${NODEMANAGERS:-2}
dir=$(mktemp -d /tmp/jvmreuse-bench-hadoop.XXXXXX)
examples=$repo/hadoop-patch/target/hadoop/lib/hadoop-mapreduce-examples-2.2.0.jar

cleanup() {
    "$repo/job-scripts/bin/jvmreuse-cluster" stop --dir "$dir" >/dev/null 2>&1 || true
    if [[ -z ${KEEP:-} ]]; then
        rm -rf "$dir"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { printf '[hadoop-tasks] %s\n' "$*" >&2; }

"$repo/job-scripts/bin/jvmreuse-cluster" start --dir "$dir" --nodemanagers "$nodemanagers" --pool
# shellcheck source=/dev/null
source "$dir/env.sh"

mkdir -p "$dir/data/in"
for ((i = 0; i < maps; i++)); do
    seq 1 3000 | awk -v f="$i" '{ print "w" ($1 % 97) " f" f " x" ($1 % 13) }' >"$dir/data/in/part-$i.txt"
done

# Milliseconds since midnight of an ISO8601 log time "YYYY-MM-DD HH:MM:SS,mmm" (fields $1 $2).
ms_awk='function ms(d, t,   h) { split(t, h, /[:,]/); return ((h[1] * 60 + h[2]) * 60 + h[3]) * 1000 + h[4] }'

# Appends "launch-to-ask ms" per task of application $1 to file $2. The MRAppMaster's log comes
# from `yarn logs`, once the NodeManagers have aggregated it (a few seconds after the job).
task_times() {
    local app=$1 out=$2 am tries=0
    am=$(mktemp "$dir/am.XXXXXX")
    until yarn logs -applicationId "$app" 2>/dev/null | grep 'asked for a task' >"$am"; do
        if ((++tries > 30)); then
            log "ERROR: no MRAppMaster log of $app after 30 s"
            exit 1
        fi
        sleep 1
    done
    cat "$dir"/logs/nodemanager*.log | grep "Container container_${app#application_}_[0-9]*_[0-9]* transitioned from LOCALIZED to RUNNING" |
        awk "$ms_awk"'
            NR == FNR { n = split($0, w, " "); for (i = 1; i <= n; i++) if (w[i] ~ /^jvm_/) { split(w[i], j, "_"); ask[j[5] + 0] = ms($1, $2) } next }
            { for (i = 1; i <= NF; i++) if ($i ~ /^container_/) { split($i, c, "_"); id = c[5] + 0 }
              if (id in ask) { d = ask[id] - ms($1, $2); if (d < 0) d += 86400000; print d } }' "$am" - >>"$out"
    rm -f "$am"
}

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Runs one word count; $1 = pool|stock, $2 = round. Records wall time and task times.
run_job() {
    local side=$1 round=$2 start end app opts=(-Dmapreduce.job.reduces=2)
    if [[ $side == stock ]]; then
        opts+=(-Dmapreduce.map.env=JVMREUSE_POOL=off -Dmapreduce.reduce.env=JVMREUSE_POOL=off)
    fi
    start=$EPOCHREALTIME
    hadoop jar "$examples" wordcount "${opts[@]}" "$dir/data/in" "$dir/data/out-$side-$round" >"$dir/job-$side-$round.log" 2>&1 || {
        log "ERROR: the $side job of round $round failed; the end of its output:"
        tail -n 30 "$dir/job-$side-$round.log" >&2
        exit 1
    }
    end=$EPOCHREALTIME
    app=$(grep -o 'Submitted application application_[0-9_]*' "$dir/job-$side-$round.log" | awk '{ print $3 }')
    if ((round > 0)); then
        awk -v s="$start" -v e="$end" 'BEGIN { printf "%.0f\n", (e - s) * 1000 }' >>"$dir/job-$side.ms"
        printf '%s\n' "$app" >>"$dir/apps-$side"
    fi
    log "round $round $side: $app $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f s", e - s }')"
}

for ((round = 0; round <= rounds; round++)); do
    if ((round % 2)); then order=(pool stock); else order=(stock pool); fi
    for side in "${order[@]}"; do
        run_job "$side" "$round"
    done
    if ((round > 0)) && ! cmp -s <(cat "$dir/data/out-stock-$round"/part-*) <(cat "$dir/data/out-pool-$round"/part-*); then
        log "ERROR: round $round: the pooled output differs from the stock output"
        exit 1
    fi
done

for side in stock pool; do
    while read -r app; do
        task_times "$app" "$dir/task-$side.ms"
    done <"$dir/apps-$side"
done
tasks_stock=$(wc -l <"$dir/task-stock.ms")
tasks_pool=$(wc -l <"$dir/task-pool.ms")
if ((tasks_stock == 0 || tasks_pool == 0)); then
    log "ERROR: no task times found in the logs (stock $tasks_stock, pool $tasks_pool); keep the dir with KEEP=1 and look"
    exit 1
fi
task_stock=$(median "$dir/task-stock.ms")
task_pool=$(median "$dir/task-pool.ms")
job_stock=$(median "$dir/job-stock.ms")
job_pool=$(median "$dir/job-pool.ms")
printf '\nMapReduce tasks, stock launch vs pool slots (%d NodeManagers, %d rounds, medians; outputs identical)\n' "$nodemanagers" "$rounds"
printf '%-52s %10s %10s %8s\n' "" "stock" "pool" "ratio"
awk -v s="$task_stock" -v p="$task_pool" -v ns="$tasks_stock" -v np="$tasks_pool" \
    'BEGIN { printf "%-52s %8.0fms %8.0fms %7.1fx\n", "(a) container launch -> task asks for work (" ns "/" np " tasks)", s, p, s / (p > 0 ? p : 1) }'
awk -v s="$job_stock" -v p="$job_pool" -v m="$maps" \
    'BEGIN { printf "%-52s %9.1fs %9.1fs %7.2fx\n", "(b) wordcount, " m " maps + 2 reduces, end to end", s / 1000, p / 1000, s / p }'
