#!/usr/bin/env bash
# terasort-shuffle.sh -- Hadoop's stock HTTP shuffle against the MPI shuffle, side by side on one
# real one-machine cluster (2 NodeManagers, task containers in JVM Reuse pool slots for every
# variant, the pools' MPI Shuffle Manager running throughout): a TeraSort of SIZE with
#   http            the stock shuffle (Fetcher threads against the NodeManagers' ShuffleHandler);
#   mpi-blocking    the reduce-side plug-in org.jvmreuse.shuffle.reduce.MpiShuffle, jvmreuse.shuffle.mode=blocking;
#   mpi-concurrent  the same plug-in, jvmreuse.shuffle.mode=concurrent (on this one host: each chunk copied
#                   by the fetcher straight out of the Shuffle Manager's process, docs/shuffle.md);
#   mpi-nodirect    mpi-concurrent with jvmreuse.shuffle.direct=false: chunks over MPI, as between hosts;
#   mpi-chunks      mpi-concurrent with jvmreuse.shuffle.direct-files=false: on one host, 4 MiB chunks copied
#                   out of the Shuffle Manager's mappings instead of the segment read from its lent file;
#   mpi-mergewait   mpi-concurrent with jvmreuse.shuffle.fetch-during-merge=false: fetchers wait for a running
#                   in-memory merge before their next host, as Hadoop's do;
# each with mapreduce.reduce.shuffle.parallelcopies = 1 and = 5, interleaved over ROUNDS. One
# teragen makes the input of every sort; every sort's output is checked with teravalidate (and
# all checksums must agree) and then deleted. Per job, from the JobHistoryServer's REST API:
# the job's finishTime - startTime, each reducer's shuffle phase (shuffleFinishTime - startTime
# of its successful attempt; mean and max over reducers), each reducer's merge phase
# (mergeFinishTime - shuffleFinishTime; mean), the counter REDUCE_SHUFFLE_BYTES and the
# plug-in's counter group org.jvmreuse.shuffle.MpiShuffle (MPI_MAPS, HTTP_MAPS, MPI_BYTES) when
# present. MpiBandwidth (1 MiB messages, non-blocking, 2 ranks) gives the raw MPI ceiling of the
# machine, measured with the cluster up but idle before the first and after the last job, 3 timed
# runs each; the best run counts (on a machine shared with other work, a busy moment only lowers
# a reading).
# Prints a table (medians over the counted rounds) and writes every number to OUT as CSV.
#
# Reducers start only when every map is done (mapreduce.job.reduce.slowstart.completedmaps=1.0,
# SLOWSTART), so a shuffle phase is fetching and merging, not waiting for maps; no speculative
# attempts (they would compete with the measured ones). A first round that is not counted
# (WARMUP=1) warms the pool slots' JIT for both shuffles: without it, the jobs of a cold cluster
# get faster one after the other (average map time 9.4 s in the first sort of 100 MB, 1.1 s in
# the sixth), which would favour whichever variant runs last.
# Shuffle throughput = REDUCE_SHUFFLE_BYTES / 10^6 / (mean shuffle phase in s): the data all
# reducers fetched over the time a reducer took, MB = 10^6 bytes as in MpiBandwidth.
#
# Settings: SIZE (default 1G: 10,000,000 rows of 100 bytes; decimal K/M/G/T suffixes or bytes),
#           VARIANTS (default "http mpi-blocking mpi-concurrent"; also mpi-nodirect, mpi-chunks, mpi-mergewait),
#           COPIES (default "1 5", the
#           parallelcopies values), ROUNDS (default 1 counted round; medians when > 1), WARMUP
#           (default 1 uncounted round first: the same sorts, validated too), REDUCES (default 4),
#           MAPS (teragen's maps, default 8), SLOWSTART (default 1.0), NODEMANAGERS (default 2),
#           MPI_SHUFFLE (default 1; 0 starts the pools with --no-mpi-shuffle, only for VARIANTS
#           without mpi-*), JOB_TIMEOUT (default 3600 s per Hadoop job, then the benchmark fails),
#           OUT (default build/bench/terasort-shuffle.csv), TMPDIR (where the cluster dir and the
#           data go), KEEP=1 keeps the cluster dir, THREAD_CPU=1 (default 0) also tells where the
#           CPU time went during each sort's shuffle phase (from the first reducer's start to the
#           last one's shuffle end): job-scripts/bench/thread-cpu.sh samples the threads of every
#           JVM of this cluster (those whose command line names its dir: not other clusters on the
#           machine) every 0.25 s, and the CPU seconds per thread name go to the log (largest first) and to
#           OUT with -threads.csv for .csv. JOB_OPTS: more -D options for every sort (split on
#           spaces), e.g. JOB_OPTS="-Djvmreuse.shuffle.window=8" to try MPI shuffle settings.
#           HOSTS (default 1): N > 1 runs the same sorts on a cluster across N separate hosts of this
#           machine (needs root; an sbatch job on the multi-host testbed's Slurm, ResourceManager on n1,
#           one NodeManager and one pool per host: lib/bench/hosts.sh), where map outputs reach other
#           hosts' reducers as MPI messages or over HTTP; the raw MPI ceiling is then measured between
#           n1 and n2 (Open MPI), the transport alone runs between two hosts (HOSTS=2
#           mpi-shuffle-transport.sh, native backend, the same LINK_RATE) and the last line reads
#           "shuffle between hosts: ..." (issue 30's form). LINK_RATE (with HOSTS): every host's link
#           shaped to it (tc tbf), e.g. 1gbit.
#           TRANSPORT (default 1): after the sorts, with the cluster stopped, run
#           mpi-shuffle-transport.sh (the transport alone, its defaults but IDLE=0; its output goes to OUT with
#           -transport.log for .csv, and its result lines to the log). It first waits up to SETTLE
#           seconds (default 120) for the 1-minute load average to fall below 1.5: right after the
#           cluster's stop its exiting JVMs and the page cache's write-back halve what one pull of
#           0.1-0.2 s shows (3.4 GB/s at load 6 against 4.2-5.3 at load 1-4 in the same hour).
#
# Last line (issue 15's one-line result; with HOSTS, issue 30's):
#   shuffle: mpi/http phase X.XXx (1 fetcher) Y.YYx (5 fetchers); cpu mpi/http A.AAx B.BBx; transport N MB/s
#   shuffle between hosts: mpi/http phase X.XXx (1 fetcher) Y.YYx (5 fetchers); cpu mpi/http A.AAx B.BBx; transport N MB/s (P% of raw MPI)
# phase: the http variant's shuffle mean / mpi-concurrent's (medians; > 1: MPI is faster); cpu: CPU
# seconds of all JVMs during mpi-concurrent's shuffle phase / during http's (medians over the rounds,
# as issue 15 asks; the line before gives the means; < 1: MPI costs less; needs THREAD_CPU=1, else
# n/a); transport: the native backend's median from mpi-shuffle-transport.sh (n/a with TRANSPORT=0),
# with HOSTS between n1 and n2 and against raw MPI between them in the same run.
# Ratios need COPIES to include 1 and 5.
#
# Example: SIZE=100M COPIES=5 WARMUP=0 job-scripts/bench/terasort-shuffle.sh
set -euo pipefail
# --help: the comment above, before anything runs.
[[ ${1:-} != -h && ${1:-} != --help ]] || { sed -n '2,/^[^#]/{/^# shellcheck/d;s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=job-scripts/lib/core/pool.sh
source "$repo/job-scripts/lib/core/pool.sh"
# shellcheck source=job-scripts/lib/bench/cluster.sh
source "$repo/job-scripts/lib/bench/cluster.sh"

size_spec=${SIZE:-1G}
read -r -a variants <<<"${VARIANTS:-http mpi-blocking mpi-concurrent}"
read -r -a copies <<<"${COPIES:-1 5}"
rounds=${ROUNDS:-1}
warmup=${WARMUP:-1}
reduces=${REDUCES:-4}
gen_maps=${MAPS:-8}
slowstart=${SLOWSTART:-1.0}
nodemanagers=${NODEMANAGERS:-2}
mpi_shuffle=${MPI_SHUFFLE:-1}
job_timeout=${JOB_TIMEOUT:-3600}
thread_cpu=${THREAD_CPU:-0}
transport=${TRANSPORT:-1}
settle=${SETTLE:-120}
read -r -a job_opts <<<"${JOB_OPTS:-}"
out_csv=${OUT:-$repo/build/bench/terasort-shuffle.csv}
examples=$repo/hadoop-patch/target/hadoop/lib/hadoop-mapreduce-examples-2.2.0.jar
plugin_class=org.jvmreuse.shuffle.reduce.MpiShuffle
cluster=$repo/job-scripts/bin/jvmreuse-cluster

log() { printf '[terasort-shuffle] %s\n' "$*" >&2; }
die() {
    log "ERROR: $*"
    exit 1
}

# --- settings ------------------------------------------------------------------------------

# Bytes of a size with an optional decimal suffix (TeraGen's sizes are decimal: 1G = 10^7 rows).
bytes_of() {
    local n=${1%%[KkMmGgTt]*} suffix=${1##*[0-9]} mult=1
    suffix=${suffix%[Bb]}
    [[ $n =~ ^[0-9]+$ && ${n}${suffix} == "${1%[Bb]}" ]] || return 1
    case $suffix in
        '') ;;
        [Kk]) mult=1000 ;;
        [Mm]) mult=1000000 ;;
        [Gg]) mult=1000000000 ;;
        [Tt]) mult=1000000000000 ;;
        *) return 1 ;;
    esac
    printf '%s' $((n * mult))
}

size_bytes=$(bytes_of "$size_spec") || die "SIZE=$size_spec: give bytes or a number with K, M, G or T (decimal)"
rows=$((size_bytes / 100))
((rows > 0)) || die "SIZE=$size_spec is less than one 100-byte row"
for v in rounds warmup reduces gen_maps nodemanagers job_timeout; do
    [[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a whole number (got ${!v})"
done
((rounds >= 1 && reduces >= 1 && gen_maps >= 1 && nodemanagers >= 1)) || die "ROUNDS, REDUCES, MAPS, NODEMANAGERS must be >= 1"
((${#variants[@]} > 0 && ${#copies[@]} > 0)) || die "VARIANTS and COPIES must not be empty"
[[ $thread_cpu == [01] ]] || die "THREAD_CPU must be 0 or 1 (got $thread_cpu)"
[[ $transport == [01] ]] || die "TRANSPORT must be 0 or 1 (got $transport)"
[[ $settle =~ ^[0-9]+$ ]] || die "SETTLE must be a number of seconds (got $settle)"
threads_csv=${out_csv%.csv}-threads.csv
any_mpi=
for v in "${variants[@]}"; do
    case $v in
        http) ;;
        mpi-blocking | mpi-concurrent | mpi-nodirect | mpi-chunks | mpi-mergewait) any_mpi=1 ;;
        *) die "unknown variant $v (known: http mpi-blocking mpi-concurrent mpi-nodirect mpi-chunks mpi-mergewait)" ;;
    esac
done
for c in "${copies[@]}"; do
    [[ $c =~ ^[1-9][0-9]*$ ]] || die "COPIES: $c is not a whole number >= 1"
done
cluster_opts=(--nodemanagers "$nodemanagers")
case $mpi_shuffle in
    1) ;;
    0)
        [[ -z $any_mpi ]] || die "MPI_SHUFFLE=0 runs no Shuffle Manager: VARIANTS must not name mpi-* variants"
        cluster_opts+=(--no-mpi-shuffle)
        ;;
    *) die "MPI_SHUFFLE must be 0 or 1" ;;
esac
cluster_help=$("$cluster" --help 2>&1 || true)
if [[ $cluster_help != *--no-mpi-shuffle* ]]; then
    die "this jvmreuse-cluster has no MPI shuffle options (--mpi-shuffle/--no-mpi-shuffle): update the checkout"
fi

# --- tools: a JSON reader and the build --------------------------------------------------

# json_flat FILE prints one "path<TAB>value" line per scalar of the JSON in FILE (path elements
# joined by dots, array indices as numbers), with jq if installed, else python3.
if command -v jq >/dev/null 2>&1; then
    json_flat() { jq -r 'tostream | select(length == 2) | select(.[1] | type | . != "object" and . != "array" and . != "null") | [(.[0] | map(tostring) | join(".")), (.[1] | tostring)] | @tsv' "$1"; }
elif command -v python3 >/dev/null 2>&1; then
    json_flat() {
        python3 -c '
import json, sys
def walk(path, v):
    if isinstance(v, dict):
        for k, x in v.items(): walk(path + [str(k)], x)
    elif isinstance(v, list):
        for i, x in enumerate(v): walk(path + [str(i)], x)
    elif isinstance(v, bool):
        print(".".join(path) + "\t" + str(v).lower())
    elif v is not None:
        print(".".join(path) + "\t" + str(int(v) if isinstance(v, float) and v.is_integer() else v))
walk([], json.load(open(sys.argv[1])))' "$1"
    }
elif [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    log "neither jq nor python3 is installed: installing jq"
    apt-get -q=2 update >/dev/null || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get -q=2 install -y --no-install-recommends jq >/dev/null || die "apt-get install jq failed"
    hash -r
    json_flat() { jq -r 'tostream | select(length == 2) | select(.[1] | type | . != "object" and . != "array" and . != "null") | [(.[0] | map(tostring) | join(".")), (.[1] | tostring)] | @tsv' "$1"; }
else
    die "reading the JobHistoryServer's JSON needs jq or python3: install one (as root: apt-get install jq)"
fi
command -v curl >/dev/null 2>&1 || die "curl is missing (as root: apt-get install curl)"

jvmreuse_load_build "$repo"
jvmreuse_bench_jar "$repo" || die "the benchmarks jar (MpiBandwidth) is missing: run job-scripts/setup.sh"
java=$(jvmreuse_java) || die "no java found: set JAVA_HOME"
[[ -f $examples ]] || die "$examples is missing: run job-scripts/setup.sh"
shuffle_jar=$(find "$repo/mpi-shuffle/target" -maxdepth 1 -name 'mpi-shuffle-*.jar' ! -name '*-sources.jar' 2>/dev/null | head -n 1)
shuffle_classes=
if [[ -n $shuffle_jar ]]; then
    shuffle_classes=$("$(dirname "$(readlink -f "$java")")/jar" tf "$shuffle_jar" 2>/dev/null || true)
fi
[[ -n $shuffle_jar ]] || die "the mpi-shuffle jar is missing: run job-scripts/setup.sh"
if [[ -n $any_mpi ]] && ! grep -qx "${plugin_class//.//}.class" <<<"$shuffle_classes"; then
    die "$shuffle_jar has no $plugin_class: the MPI variants need the reduce-side plug-in (or set VARIANTS=http)"
fi

# --- disk ----------------------------------------------------------------------------------

bench_cluster_dir terasort
# input, map outputs (NodeManager local dirs) and one sort's output exist at once
need=$((size_bytes * 3))
avail=$(df -PB1 "$dir" | awk 'NR == 2 { print $4 }')
if ((avail < need)); then
    die "not enough disk in $(df -P "$dir" | awk 'NR == 2 { print $6 }') for SIZE=$size_spec: need 3 x SIZE =" \
        "$((need / 1000000)) MB (input, map outputs and one sort's output at once), $((avail / 1000000)) MB free." \
        "Choose a smaller SIZE or point TMPDIR at a bigger file system."
fi
mkdir -p "$(dirname "$out_csv")"

# --- the raw MPI ceiling -------------------------------------------------------------------

# MpiBandwidth under its own mpirun, 2 ranks: 1 MiB messages, non-blocking, the best of 3 timed
# runs (interference only lowers a reading); prints MB/s, its output goes to $dir/mpi-bandwidth-$1.log.
mpi_bandwidth() {
    local output cmd
    jvmreuse_mpi_program_command 2 "$BENCH_JAR" org.jvmreuse.bench.mpi.MpiBandwidth --size 1048576 --mode nonblocking --repeat 3 ||
        die "cannot build the MpiBandwidth command"
    cmd=("${JVMREUSE_MPI_PROGRAM_CMD[@]}")
    if ((HOSTS > 1)); then
        # Between n1 and n2, launched from n1 with the testbed's agent (Open MPI's settings).
        # shellcheck disable=SC2016 # expanded by that bash
        cmd=("${bench_client[@]}" bash -c 'eval "$("$0" mpi-env)" && exec "$@"' "$repo/job-scripts/testbed/jvmreuse-hosts"
            "${cmd[0]}" -host "n1,n2" "${cmd[@]:1}")
    fi
    if ! output=$("${cmd[@]}" 2>&1); then
        printf '%s\n' "$output" | tail -n 20 >&2
        die "MpiBandwidth failed: ${JVMREUSE_MPI_PROGRAM_CMD[*]}"
    fi
    printf '%s\n' "$output" >"$dir/mpi-bandwidth-$1.log"
    printf '%s\n' "$output" | sed -n 's/^bandwidth mode=nonblocking .* best=\([0-9.]*\).*/\1/p'
}

# Measures the raw MPI bandwidth ($1: before|after the jobs) into the CSV; ceiling = the highest
# reading so far, ceiling_loads = the load averages of the readings.
ceiling=0 ceiling_loads=
mpi_ceiling() {
    local when=$1 load mbps
    load=$(cut -d ' ' -f 1 /proc/loadavg)
    log "raw MPI bandwidth $when the jobs (MpiBandwidth, 1 MiB, non-blocking, 2 ranks$( ((HOSTS == 1)) || echo ' on n1 and n2'); load average $load)"
    mbps=$(mpi_bandwidth "$when")
    [[ $mbps =~ ^[0-9.]+$ ]] || die "no bandwidth line in MpiBandwidth's output ($dir/mpi-bandwidth-$when.log)"
    log "raw MPI bandwidth $when the jobs: $mbps MB/s"
    printf '0,raw-mpi-bandwidth,,%s,,,,,,,,%s,,,,,%s,\n' "$when" "$mbps" "$load" >>"$out_csv"
    ceiling=$(awk -v a="$ceiling" -v b="$mbps" 'BEGIN { print (b > a) ? b : a }')
    ceiling_loads+="${ceiling_loads:+; }$when: $mbps MB/s at load $load"
}

# --- the cluster and the jobs ----------------------------------------------------------------

bench_cluster_start "${cluster_opts[@]}"
if ((HOSTS > 1)); then
    jhs=$JVMREUSE_JHS_WEB/ws/v1/history/mapreduce
else
    jhs_port=$(sed -n 's/^PORT_jhs_web=//p' "$dir/cluster.env")
    [[ $jhs_port =~ ^[0-9]+$ ]] || die "no JobHistory web port in $dir/cluster.env"
    jhs=http://127.0.0.1:$jhs_port/ws/v1/history/mapreduce
fi
mkdir -p "$dir/data" "$dir/jobs"

# Runs `hadoop jar examples ARGS...` with its output in $dir/jobs/$1.log; prints the job id.
run_example() {
    local name=$1 log=$dir/jobs/$1.log job
    shift
    if ! timeout "$job_timeout" ${bench_client[@]+"${bench_client[@]}"} hadoop jar "$examples" "$@" >"$log" 2>&1; then
        log "ERROR: $name failed or took more than JOB_TIMEOUT=$job_timeout s; the end of its output ($log):"
        tail -n 30 "$log" >&2
        exit 1
    fi
    job=$(grep -o 'Running job: job_[0-9_]*' "$log" | head -n 1 | awk '{ print $3 }')
    [[ -n $job ]] || die "no job id in $log"
    printf '%s' "$job"
}

# Fetches $jhs/$1 into file $2, retrying while the JobHistoryServer does not know the job yet
# (it finds a job once the AppMaster has written its history file: seconds after the client).
jhs_get() {
    local tries=0
    until ${bench_client[@]+"${bench_client[@]}"} curl -sf -H 'Accept: application/json' "$jhs/$1" -o "$2"; do
        if ((++tries > 60)); then
            die "the JobHistoryServer did not answer $jhs/$1 within 60 s"
        fi
        sleep 1
    done
}

# Prints "total_ms shuffle_mean_ms shuffle_max_ms reducers shuffle_bytes mpi_maps http_maps mpi_bytes maps merge_mean_ms"
# of job $1 from the JobHistoryServer ("-" for a counter that is not there).
job_stats() {
    local job=$1 jd=$dir/jobs/$1 task state
    mkdir -p "$jd"
    jhs_get "jobs/$job" "$jd/job.json"
    state=$(json_flat "$jd/job.json" | awk -F '\t' '$1 == "job.state" { print $2 }')
    [[ $state == SUCCEEDED ]] || die "job $job: state ${state:-unknown} in the JobHistoryServer"
    jhs_get "jobs/$job/counters" "$jd/counters.json"
    jhs_get "jobs/$job/tasks?type=r" "$jd/tasks.json"
    : >"$jd/shuffle.ms"
    for task in $(json_flat "$jd/tasks.json" | awk -F '\t' '$1 ~ /^tasks\.task\.[0-9]+\.id$/ { print $2 }'); do
        jhs_get "jobs/$job/tasks/$task/attempts" "$jd/$task.json"
        json_flat "$jd/$task.json" | awk -F '\t' '
            { split($1, p, "."); i = p[3]; f = p[4] }
            f == "state" { st[i] = $2 } f == "startTime" { s[i] = $2 } f == "shuffleFinishTime" { e[i] = $2 }
            f == "mergeFinishTime" { m[i] = $2 }
            END { for (i in st) if (st[i] == "SUCCEEDED") print e[i] - s[i], s[i], e[i], m[i] - e[i] }' >>"$jd/shuffle.ms"
    done
    [[ -s $jd/shuffle.ms ]] || die "job $job: no successful reduce attempt in the JobHistoryServer"
    {
        json_flat "$jd/job.json" | awk -F '\t' '$1 == "job.startTime" { print "start", $2 } $1 == "job.finishTime" { print "finish", $2 }
            $1 == "job.mapsTotal" { print "maps", $2 }'
        json_flat "$jd/counters.json" | awk -F '\t' '
            $1 ~ /\.counterGroupName$/ { split($1, p, "."); group[p[3]] = $2 }
            $1 ~ /\.counter\.[0-9]+\.name$/ { split($1, p, "."); name[p[3] "." p[5]] = $2 }
            $1 ~ /\.counter\.[0-9]+\.totalCounterValue$/ { split($1, p, "."); value[p[3] "." p[5]] = $2 }
            END { for (k in name) { split(k, p, "."); print "counter", group[p[1]] "::" name[k], value[k] } }'
        awk '{ print "shuffle", $1, $4 }' "$jd/shuffle.ms"
    } | awk '
        $1 == "start" { start = $2 } $1 == "finish" { finish = $2 } $1 == "maps" { maps = $2 }
        $1 == "shuffle" { n++; sum += $2; merge += $3; if ($2 > max) max = $2 }
        $1 == "counter" { c[$2] = $3 }
        function get(k) { return (k in c) ? c[k] : "-" }
        END {
            printf "%d %.0f %d %d %s %s %s %s %d %.0f\n", finish - start, sum / n, max, n,
                get("org.apache.hadoop.mapreduce.TaskCounter::REDUCE_SHUFFLE_BYTES"),
                get("org.jvmreuse.shuffle.MpiShuffle::MPI_MAPS"), get("org.jvmreuse.shuffle.MpiShuffle::HTTP_MAPS"),
                get("org.jvmreuse.shuffle.MpiShuffle::MPI_BYTES"), maps, merge / n
        }'
}

# Where the CPU time of every JVM went during the shuffle phase of job $1 (round $2, variant $3,
# parallelcopies $4), per thread name: the 6 largest to the log, all to threads_csv (counted rounds).
shuffle_cpu() {
    local job=$1 round=$2 variant=$3 pc=$4 jd=$dir/jobs/$1 from to window
    read -r from to window < <(awk 'NR == 1 || $2 < from { from = $2 } NR == 1 || $3 > to { to = $3 }
        END { printf "%.0f %.0f %.3f\n", from, to, (to - from) / 1000 }' "$jd/shuffle.ms")
    "$here/thread-cpu.sh" sum "$dir/thread-cpu.samples" "$from" "$to" >"$jd/thread-cpu.txt"
    log "round $round, $variant, parallelcopies $pc: CPU seconds in the $window s shuffle phase:" \
        "$(head -n 7 "$jd/thread-cpu.txt" | awk '{ printf "%s%s %s", sep, $2, $1; sep = ", " }')"
    if ((round > 0)); then
        awk -v r="$round" -v v="$variant" -v pc="$pc" -v job="$job" -v w="$window" \
            '{ printf "%d,%s,%d,%s,%s,%s,%s\n", r, v, pc, job, w, $2, $1 }' "$jd/thread-cpu.txt" >>"$threads_csv"
    fi
}

# Checks a sort's output with teravalidate: no error records, and the same checksum as every
# other sort of the same input. Sets checksum.
first_checksum=
validate() {
    local name=$1 output=$2 report=$dir/data/validate-$1 sum
    sum=$(run_example "validate-$name" teravalidate "$output" "$report")
    if grep -qv '^checksum' "$report"/part-*; then
        log "ERROR: teravalidate found errors in the output of $name:"
        grep -v '^checksum' "$report"/part-* | head -n 10 >&2
        exit 1
    fi
    sum=$(awk '$1 == "checksum" { print $2 }' "$report"/part-*)
    [[ -n $sum ]] || die "teravalidate of $name wrote no checksum ($report)"
    if [[ -n $first_checksum && $sum != "$first_checksum" ]]; then
        die "the output of $name has checksum $sum, the first sort had $first_checksum: rows were lost or changed"
    fi
    first_checksum=$sum checksum=$sum
    rm -rf "$report"
}

# Runs one sort: $1 variant, $2 parallelcopies, $3 round (<= 0: warm-up, not recorded).
run_sort() {
    local variant=$1 pc=$2 round=$3 name output job start end stats load
    local opts=(-Dmapreduce.job.reduces="$reduces" -Dmapreduce.terasort.simplepartitioner=true
        -Dmapreduce.reduce.shuffle.parallelcopies="$pc" -Dmapreduce.job.reduce.slowstart.completedmaps="$slowstart"
        -Dmapreduce.map.speculative=false -Dmapreduce.reduce.speculative=false ${job_opts[@]+"${job_opts[@]}"})
    case $variant in
        mpi-blocking) opts+=(-Dmapreduce.job.reduce.shuffle.consumer.plugin.class="$plugin_class" -Djvmreuse.shuffle.mode=blocking) ;;
        mpi-concurrent) opts+=(-Dmapreduce.job.reduce.shuffle.consumer.plugin.class="$plugin_class" -Djvmreuse.shuffle.mode=concurrent) ;;
        mpi-nodirect) opts+=(-Dmapreduce.job.reduce.shuffle.consumer.plugin.class="$plugin_class" -Djvmreuse.shuffle.mode=concurrent
            -Djvmreuse.shuffle.direct=false) ;;
        mpi-chunks) opts+=(-Dmapreduce.job.reduce.shuffle.consumer.plugin.class="$plugin_class" -Djvmreuse.shuffle.mode=concurrent
            -Djvmreuse.shuffle.direct-files=false) ;;
        mpi-mergewait) opts+=(-Dmapreduce.job.reduce.shuffle.consumer.plugin.class="$plugin_class"
            -Djvmreuse.shuffle.mode=concurrent -Djvmreuse.shuffle.fetch-during-merge=false) ;;
    esac
    name=sort-$variant-pc$pc-r$round
    output=$dir/data/$name
    load=$(cut -d ' ' -f 1 /proc/loadavg)
    start=$EPOCHREALTIME
    job=$(run_example "$name" terasort "${opts[@]}" "$dir/data/in" "$output")
    end=$EPOCHREALTIME
    validate "$name" "$output"
    rm -rf "$output"
    stats=$(job_stats "$job")
    if ((thread_cpu)); then
        shuffle_cpu "$job" "$round" "$variant" "$pc"
    fi
    # shellcheck disable=SC2086 # stats is a list of 10 words
    set -- $stats
    log "round $round, $variant, parallelcopies $pc: $job total $(awk -v t="$1" 'BEGIN { printf "%.1f", t / 1000 }') s," \
        "shuffle mean $(awk -v t="$2" 'BEGIN { printf "%.1f", t / 1000 }') s max $(awk -v t="$3" 'BEGIN { printf "%.1f", t / 1000 }') s," \
        "merge mean $(awk -v t="${10}" 'BEGIN { printf "%.1f", t / 1000 }') s," \
        "REDUCE_SHUFFLE_BYTES $5, MPI_MAPS $6 HTTP_MAPS $7 MPI_BYTES $8, valid (checksum $checksum)"
    if ((round > 0)); then
        awk -v r="$round" -v v="$variant" -v pc="$pc" -v job="$job" -v wall="$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" \
            -v sum="$checksum" -v stats="$stats" -v load="$load" 'BEGIN {
                split(stats, s, " ")
                printf "%d,%s,%d,%s,%.3f,%.3f,%.3f,%.3f,%d,%d,%s,%.1f,%s,%s,%s,%s,%s,%.3f\n", r, v, pc, job, s[1] / 1000, wall,
                    s[2] / 1000, s[3] / 1000, s[4], s[9], s[5], (s[5] == "-" || s[2] == 0) ? 0 : s[5] / 1e6 / (s[2] / 1000),
                    s[6], s[7], s[8], sum, load, s[10] / 1000 }' >>"$out_csv"
    fi
}

if ((thread_cpu)); then
    printf 'round,variant,parallelcopies,job,shuffle_window_s,thread,cpu_s\n' >"$threads_csv"
    MATCH=$dir "$here/thread-cpu.sh" sample "$dir/thread-cpu.samples" &
    bench_cluster_stop_with $!
fi
printf 'round,variant,parallelcopies,job,total_s,client_wall_s,shuffle_mean_s,shuffle_max_s,reducers,maps,reduce_shuffle_bytes,shuffle_MBps,mpi_maps,http_maps,mpi_bytes,checksum,loadavg_1m,merge_mean_s\n' >"$out_csv"

mpi_ceiling before

log "teragen: $rows rows ($size_bytes bytes), $gen_maps maps"
run_example teragen teragen -Dmapreduce.job.maps="$gen_maps" "$rows" "$dir/data/in" >/dev/null

# Interleaved: each round runs every variant with every parallelcopies value, in reverse order
# every other round.
order=()
for v in "${variants[@]}"; do
    for c in "${copies[@]}"; do
        order+=("$v:$c")
    done
done
for ((round = 1 - warmup; round <= rounds; round++)); do
    if ((round % 2)); then
        this=("${order[@]}")
    else
        this=()
        for ((i = ${#order[@]} - 1; i >= 0; i--)); do this+=("${order[i]}"); done
    fi
    for item in "${this[@]}"; do
        run_sort "${item%%:*}" "${item##*:}" "$round"
    done
done
mpi_ceiling after

# --- the table ----------------------------------------------------------------------------

if ((HOSTS > 1)); then
    where="$HOSTS hosts${LINK_RATE:+ (links at $LINK_RATE)}, a NodeManager on each"
else
    where="$nodemanagers NodeManagers"
fi
printf '\nTeraSort %s (%d rows), %d reducers, %s, tasks in pool slots; %s of %d counted round(s) after %d warm-up round(s); outputs valid\n' \
    "$size_spec" "$rows" "$reduces" "$where" "$( ((rounds > 1)) && echo medians || echo values)" "$rounds" "$warmup"
printf '%d cores; 1-minute load average when each sort started: %s\n' "$(nproc)" \
    "$(awk -F, 'NR > 1 && $2 != "raw-mpi-bandwidth" { printf "%s%s", sep, $17; sep = " " }' "$out_csv")"
awk -F, -v ceiling="$ceiling" -v readings="$ceiling_loads" -v order="${variants[*]}" -v copies="${copies[*]}" '
    function median(key,   n, i, j, t, v) {
        n = split(vals[key], v, " ")
        for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    function range(key,   n, i, v, lo, hi) {
        n = split(vals[key], v, " "); lo = hi = v[1]
        for (i = 2; i <= n; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
        return sprintf("%.1f-%.1f s", lo, hi)
    }
    function add(k, x) { vals[k] = (k in vals) ? vals[k] " " x : x }
    NR > 1 && $2 != "raw-mpi-bandwidth" {
        k = $2 SUBSEP $3
        add(k SUBSEP "total", $5); add(k SUBSEP "mean", $7); add(k SUBSEP "max", $8); add(k SUBSEP "bytes", $11)
        add(k SUBSEP "merge", $18)
        maps[k] = ($13 == "-") ? "-" : $13 "/" $14
    }
    END {
        printf "%-15s %6s %13s %12s %12s %11s %9s %12s %10s %10s %8s %10s\n", "variant", "copies", "shuffle mean", "mean range",
            "shuffle max", "merge mean", "total", "shuffle MB/s", "shuffle vs", "total vs", "of raw", "MPI/HTTP"
        printf "%-15s %6s %13s %12s %12s %11s %9s %12s %10s %10s %8s %10s\n", "", "", "", "(rounds)", "", "", "", "", "http", "http", "MPI", "maps"
        nv = split(order, V, " "); nc = split(copies, C, " ")
        for (i = 1; i <= nv; i++) for (j = 1; j <= nc; j++) {
            k = V[i] SUBSEP C[j]; h = "http" SUBSEP C[j]
            if (!((k SUBSEP "mean") in vals)) continue
            mean = median(k SUBSEP "mean"); total = median(k SUBSEP "total")
            tput = mean > 0 ? median(k SUBSEP "bytes") / 1e6 / mean : 0
            if ((h SUBSEP "mean") in vals) {
                rs = sprintf("%.2fx", median(h SUBSEP "mean") / mean); rt = sprintf("%.2fx", median(h SUBSEP "total") / total)
            } else { rs = "n/a"; rt = "n/a" }
            printf "%-15s %6d %11.1f s %12s %10.1f s %9.1f s %7.1f s %12.1f %10s %10s %7.1f%% %10s\n", V[i], C[j], mean,
                range(k SUBSEP "mean"), median(k SUBSEP "max"), median(k SUBSEP "merge"), total, tput, rs, rt, 100 * tput / ceiling,
                maps[k]
        }
        printf "raw MPI bandwidth (MpiBandwidth, 2 ranks, 1 MiB messages, non-blocking, window 4): %.1f MB/s\n  (the best timed run of: %s)\n", ceiling, readings
    }' "$out_csv"
cat <<EOF
shuffle mean / max: over reducers, shuffleFinishTime - startTime of the successful attempt; merge mean: over
  reducers, mergeFinishTime - shuffleFinishTime (a merge the fetchers did not wait for ends there); total: the
  job's finishTime - startTime (all from the JobHistoryServer). mean range: the lowest and highest shuffle mean
  of the counted rounds (on a small machine single readings spread widely: compare ratios with care).
shuffle MB/s = REDUCE_SHUFFLE_BYTES / 10^6 / shuffle mean: all reducers' bytes over one reducer's shuffle phase
  (with ROUNDS > 1, from the medians of both).
vs http: the http variant's time / this variant's time, same parallelcopies (> 1: faster than HTTP).
of raw MPI: shuffle MB/s / the raw MPI bandwidth. MPI/HTTP maps: the plug-in's MPI_MAPS / HTTP_MAPS counters
  (last round; "-": no org.jvmreuse.shuffle.MpiShuffle counters). CSV: $out_csv
EOF
if ((thread_cpu)); then
    printf '\nCPU seconds of every JVM during the shuffle phase, per thread name (means over the counted rounds; %d vCPUs):\n' "$(nproc)"
    awk -F, -v order="${order[*]}" '
        NR > 1 { k = $2 ":" $3; if (!((k, $6) in cpu)) names[k] = names[k] " " $6; cpu[k, $6] += $7
                 if ($6 == "total") { n[k]++; win[k] += $5 } }
        END {
            nk = split(order, K, " ")
            for (i = 1; i <= nk; i++) {
                k = K[i]; if (!(k in n)) continue
                line = sprintf("%-18s window %5.2f s:", k, win[k] / n[k])
                na = split(names[k], all, " "); split("", seen)
                for (m = 0; m < 7; m++) {
                    best = ""
                    for (j = 1; j <= na; j++) if (!(all[j] in seen) && (best == "" || cpu[k, all[j]] > cpu[k, best])) best = all[j]
                    if (best == "") break
                    seen[best] = 1; line = line sprintf(" %s %.2f", best, cpu[k, best] / n[k])
                }
                print line
            }
        }' "$threads_csv"
    printf 'CSV: %s\n' "$threads_csv"
fi
for item in "${order[@]}"; do
    if [[ $item == mpi-* ]] && ! awk -F, -v v="${item%%:*}" -v pc="${item##*:}" '$2 == v && $3 == pc && $13 != "-" && $13 > 0 { found = 1 } END { exit !found }' "$out_csv"; then
        log "WARNING: ${item%%:*} with parallelcopies ${item##*:} shows no maps fetched over MPI (MPI_MAPS): its numbers are not the MPI shuffle's"
    fi
done

# --- the one-line result ---------------------------------------------------------------------

transport_mbps=n/a
if ((transport)); then
    bench_cluster_stop_now
    settled=$SECONDS
    while ((SECONDS - settled < settle)) && awk '{ exit !($1 >= 1.5) }' /proc/loadavg; do
        sleep 5
    done
    log "waited $((SECONDS - settled)) s (SETTLE $settle) for the load to settle after the cluster's stop"
    transport_log=${out_csv%.csv}-transport.log
    log "the transport alone: job-scripts/bench/mpi-shuffle-transport.sh (output: $transport_log; load average" \
        "$(cut -d ' ' -f 1 /proc/loadavg))"
    # IDLE=0: its idle measurement is not what this comparison reads; SIZE is its own (bytes); one
    # pml, the launch's own (PMLS would rename the result line read below).
    # Across hosts: between n1 and n2 (this run's hosts are down by now), at the same link rate.
    transport_env=(IDLE="${IDLE:-0}")
    ((HOSTS == 1)) || transport_env+=(HOSTS=2 BACKENDS="${BACKENDS:-native}")
    env -u SIZE -u PMLS "${transport_env[@]}" "$here/mpi-shuffle-transport.sh" >"$transport_log" 2>&1 ||
        die "mpi-shuffle-transport.sh failed: see $transport_log"
    grep -E '^(native|java) |^CPU seconds|^mpi-shuffle-transport' "$transport_log" >&2 || true
    if ((HOSTS == 1)); then
        transport_mbps=$(sed -n 's/^mpi-shuffle-transport native: shuffle \([0-9]*\) MB\/s.*/\1 MB\/s/p' "$transport_log")
    else
        transport_mbps=$(sed -n 's/^mpi-shuffle-transport across 2 hosts[^:]*: shuffle \([0-9]*\) MB\/s, raw MPI [0-9]* MB\/s (\([0-9]*%\) of raw MPI).*/\1 MB\/s (\2 of raw MPI)/p' "$transport_log" | head -n 1)
    fi
    [[ -n $transport_mbps ]] || die "no native backend result in $transport_log"
fi
# csv_ratio PC COLUMN [COLUMN2]: http's median of a CSV column (+ a second one) / mpi-concurrent's
# (column 7: the shuffle mean); cpu_ratio PC [mean]: the median (or mean) over the rounds of the CPU
# seconds of mpi-concurrent / of http during the phase ("n/a" where a variant or THREAD_CPU is missing).
# awk: the median of the numbers in a blank-separated string
awk_median='function median(s,   n, v, i, j, t) { n = split(s, v, " ")
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'
csv_ratio() {
    awk -F, -v pc="$1" -v a="$2" -v b="${3:-0}" "$awk_median"'
        NR > 1 && $3 == pc && ($2 == "http" || $2 == "mpi-concurrent") { m[$2] = m[$2] " " ($a + (b ? $b : 0)) }
        END { if (("http" in m) && ("mpi-concurrent" in m) && median(m["mpi-concurrent"]) > 0)
                  printf "%.2fx", median(m["http"]) / median(m["mpi-concurrent"]); else printf "n/a" }' "$out_csv"
}
cpu_ratio() {
    if ((!thread_cpu)); then
        printf n/a
        return
    fi
    awk -F, -v pc="$1" -v stat="${2:-median}" "$awk_median"'
        NR > 1 && $3 == pc && $6 == "total" { s[$2] += $7; n[$2]++; m[$2] = m[$2] " " $7 }
        END { if (!n["http"] || !n["mpi-concurrent"] || s["http"] <= 0) { printf "n/a"; exit }
              if (stat == "mean") printf "%.2fx", (s["mpi-concurrent"] / n["mpi-concurrent"]) / (s["http"] / n["http"])
              else printf "%.2fx", median(m["mpi-concurrent"]) / median(m["http"]) }' "$threads_csv"
}
# the merge the fetchers no longer wait for shows after the shuffle phase: the time to the reduce, and the jobs'
printf 'mpi/http shuffle+merge %s (1 fetcher) %s (5 fetchers); job total %s %s\n' "$(csv_ratio 1 7 18)" "$(csv_ratio 5 7 18)" \
    "$(csv_ratio 1 5)" "$(csv_ratio 5 5)"
# the CPU seconds of single rounds spread widely (a straggler's window counts the others' merges):
# the means beside the medians the last line gives
printf 'cpu mpi/http, means of the rounds instead of medians: %s (1 fetcher) %s (5 fetchers)\n' \
    "$(cpu_ratio 1 mean)" "$(cpu_ratio 5 mean)"
printf 'shuffle%s: mpi/http phase %s (1 fetcher) %s (5 fetchers); cpu mpi/http %s %s; transport %s\n' \
    "$( ((HOSTS == 1)) || echo " between hosts")" "$(csv_ratio 1 7)" "$(csv_ratio 5 7)" "$(cpu_ratio 1)" "$(cpu_ratio 5)" "$transport_mbps"
