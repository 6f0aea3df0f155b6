# shellcheck shell=bash disable=SC2034 # globals (HPC_*) are shared by the hpc-job*.sh files
#
# hpc-job-workloads.sh -- the workloads: PageRank, K-means, the TeraSort comparison, a user command.
# Part of the HPC job library; sourced by hpc-job.sh, which documents the whole.

# ---------------------------------------------------------------------------------------------
# Workloads

# Runs the job client: `hadoop ARGS...` with output to log $1 (and the tail on failure).
_hpc_hadoop() {
    local log=$1
    shift
    if ! _hpc_run "$log" "$HPC_WORK/master/bin/hadoop" "$@"; then
        _hpc_show_log "$log"
        _hpc_log "ERROR: hadoop $* failed (log: $log)"
        return 1
    fi
}

# Waits (up to JVMREUSE_START_TIMEOUT) until every node's agent has written its pool's state, which
# it does once the pool's slots have warmed up: a comparison of shuffles must not run its MPI side
# while some reducers still take the stock path.
_hpc_wait_pools_warm() {
    local name deadline
    [[ $JVMREUSE_POOL == 1 ]] || return 0
    deadline=$(($(date +%s) + JVMREUSE_START_TIMEOUT))
    for name in "${HPC_NODES[@]}"; do
        until [[ -f $HPC_WORK/nodes/$name/pool.state ]]; do
            if (($(date +%s) >= deadline)); then
                _hpc_log "WARNING: the pool of node $name has not warmed up after ${JVMREUSE_START_TIMEOUT}s; going on"
                return 0
            fi
            sleep 0.5
        done
    done
    _hpc_log "every node's pool has warmed up"
}

# With HDFS, an input on the shared file system is copied into the job's HDFS first; prints the
# path the jobs read ($1: where generated input goes).
_hpc_input() {
    if [[ -z $JVMREUSE_INPUT ]]; then
        printf '%s' "$1"
    elif [[ $JVMREUSE_HDFS == 1 ]]; then
        printf '%s' "$HPC_DATA/input"
    else
        printf '%s' "${JVMREUSE_INPUT#file://}"
    fi
}

_hpc_stage_input() {
    if [[ -n $JVMREUSE_INPUT && $JVMREUSE_HDFS == 1 ]]; then
        _hpc_log "copying JVMREUSE_INPUT=$JVMREUSE_INPUT into HDFS ($HPC_DATA/input)"
        _hpc_hadoop "$HPC_OUT/logs/stage-input.log" fs -mkdir -p "$HPC_DATA" || return 1
        _hpc_hadoop "$HPC_OUT/logs/stage-input.log" fs -put "file://${JVMREUSE_INPUT#file://}" "$HPC_DATA/input" || return 1
    fi
}

# With JVMREUSE_VERIFY=1, checks the result of workload $1 ($2: what it computed) against the
# workloads' in-memory reference (verify-$1 with the options "${@:3}"); sets HPC_VERIFIED.
_hpc_verify() {
    local name=$1 what=$2
    shift 2
    [[ $JVMREUSE_VERIFY == 1 ]] || return 0
    _hpc_log "checking the $what against the in-memory reference (verify-$name)"
    _hpc_hadoop "$HPC_OUT/logs/verify.log" jar "$HPC_WORKLOADS_JAR" "verify-$name" "$@" --output "$HPC_DATA/$name" ||
        { _hpc_log "ERROR: verify-$name failed: the $what differ from the reference"; return 1; }
    HPC_VERIFIED="verify-$name passed: $(tail -n 1 "$HPC_OUT/logs/verify.log")"
}

_hpc_workload_pagerank() {
    local input mode
    input=$(_hpc_input "$HPC_DATA/graph")
    _hpc_stage_input || return 1
    mode=$([[ $JVMREUSE_POOL == 1 ]] && echo pool || echo stock)
    if [[ -z $JVMREUSE_INPUT ]]; then
        _hpc_log "generating a graph of $JVMREUSE_PAGERANK_NODES nodes in $input"
        _hpc_hadoop "$HPC_OUT/logs/generate.log" jar "$HPC_WORKLOADS_JAR" generate-graph --output "$input" \
            --nodes "$JVMREUSE_PAGERANK_NODES" --parts "$HPC_N" || return 1
    fi
    _hpc_log "PageRank: $JVMREUSE_ITERATIONS iterations, $HPC_REDUCERS reducers, mode $mode (log: logs/workload.log)"
    _hpc_hadoop "$HPC_OUT/logs/workload.log" jar "$HPC_WORKLOADS_JAR" pagerank --input "$input" --output "$HPC_DATA/pagerank" \
        --iterations "$JVMREUSE_ITERATIONS" --reducers "$HPC_REDUCERS" --label pagerank --timings "$HPC_OUT/timings" \
        --results "$HPC_OUT/timings/results.csv" --mode "$mode" || return 1
    _hpc_verify pagerank ranks --graph "$input"
}

_hpc_workload_kmeans() {
    local input mode
    input=$(_hpc_input "$HPC_DATA/points")
    _hpc_stage_input || return 1
    mode=$([[ $JVMREUSE_POOL == 1 ]] && echo pool || echo stock)
    if [[ -z $JVMREUSE_INPUT ]]; then
        _hpc_log "generating $JVMREUSE_KMEANS_POINTS points (k $JVMREUSE_KMEANS_K, $JVMREUSE_KMEANS_DIMENSIONS dimensions) in $input"
        _hpc_hadoop "$HPC_OUT/logs/generate.log" jar "$HPC_WORKLOADS_JAR" generate-points --output "$input" \
            --points "$JVMREUSE_KMEANS_POINTS" --k "$JVMREUSE_KMEANS_K" --dimensions "$JVMREUSE_KMEANS_DIMENSIONS" \
            --parts "$HPC_N" || return 1
    fi
    _hpc_log "K-means: k $JVMREUSE_KMEANS_K, $JVMREUSE_ITERATIONS iterations, $HPC_REDUCERS reducers, mode $mode (log: logs/workload.log)"
    _hpc_hadoop "$HPC_OUT/logs/workload.log" jar "$HPC_WORKLOADS_JAR" kmeans --input "$input" --output "$HPC_DATA/kmeans" \
        --k "$JVMREUSE_KMEANS_K" --iterations "$JVMREUSE_ITERATIONS" --reducers "$HPC_REDUCERS" --label kmeans \
        --timings "$HPC_OUT/timings" --results "$HPC_OUT/timings/results.csv" --mode "$mode" || return 1
    _hpc_verify kmeans centroids --input "$input"
}

# The run time (ms) of job $1 as the JobHistoryServer records it, from the workloads' timing
# tool (job-time), or empty.
_hpc_job_ms() {
    local ms
    ms=$("$HPC_WORK/master/bin/hadoop" jar "$HPC_WORKLOADS_JAR" job-time --job "$1" 2>>"$HPC_OUT/logs/job-time.log" </dev/null |
        tail -n 1) || true
    [[ ! $ms =~ ^[0-9]+$ ]] || printf '%s' "$ms"
}

_hpc_workload_terasort_compare() {
    local input v log t0 t1 job jhs_ms checksum mpi_maps http_maps csv=$HPC_OUT/timings/terasort-compare.csv opts
    local rows=()
    input=$(_hpc_input "$HPC_DATA/tera-in")
    _hpc_stage_input || return 1
    mkdir -p "$HPC_OUT/timings"
    if [[ -z $JVMREUSE_INPUT ]]; then
        _hpc_log "teragen: $JVMREUSE_TERASORT_ROWS rows into $input"
        _hpc_hadoop "$HPC_OUT/logs/teragen.log" jar "$HPC_EXAMPLES_JAR" teragen -Dmapreduce.job.maps="$HPC_N" \
            "$JVMREUSE_TERASORT_ROWS" "$input" || return 1
    fi
    _hpc_wait_pools_warm
    printf 'variant,job_id,client_ms,jhs_job_ms,validate,checksum,mpi_maps,http_maps\n' >"$csv"
    for v in $JVMREUSE_TERASORT_VARIANTS; do
        opts=(-Dmapreduce.job.reduces="$HPC_REDUCERS" -Dmapreduce.terasort.simplepartitioner=true)
        if [[ $v == mpi ]]; then
            opts+=(-Dmapreduce.job.reduce.shuffle.consumer.plugin.class=org.jvmreuse.shuffle.reduce.MpiShuffle
                -Djvmreuse.shuffle.mode=concurrent)
        fi
        log=$HPC_OUT/logs/terasort-$v.log
        _hpc_log "terasort with the $v shuffle (log: logs/terasort-$v.log)"
        t0=$(date +%s%3N)
        _hpc_hadoop "$log" jar "$HPC_EXAMPLES_JAR" terasort "${opts[@]}" "$input" "$HPC_DATA/tera-out-$v" || return 1
        t1=$(date +%s%3N)
        job=$(grep -o 'Running job: job_[0-9_]*' "$log" | head -n 1 | awk '{ print $3 }' || true)
        jhs_ms=''
        [[ -z $job ]] || jhs_ms=$(_hpc_job_ms "$job")
        _hpc_log "teravalidate of the $v output"
        _hpc_hadoop "$HPC_OUT/logs/teravalidate-$v.log" jar "$HPC_EXAMPLES_JAR" teravalidate \
            "$HPC_DATA/tera-out-$v" "$HPC_DATA/tera-validate-$v" || return 1
        if grep -qiE 'misorder|error' "$HPC_DATA/tera-validate-$v"/part-* 2>/dev/null ||
            ! checksum=$(sed -n 's/^checksum[[:space:]]*//p' "$HPC_DATA/tera-validate-$v"/part-* 2>/dev/null) || [[ -z $checksum ]]; then
            _hpc_log "ERROR: teravalidate found the $v output unsorted or incomplete: $(cat "$HPC_DATA/tera-validate-$v"/part-* 2>/dev/null | head -n 5)"
            return 1
        fi
        # The MPI shuffle's counters: maps fetched over MPI and over HTTP (absent for the stock shuffle).
        mpi_maps=$(sed -n 's/^[[:space:]]*MPI_MAPS=//p' "$log" | tail -n 1)
        http_maps=$(sed -n 's/^[[:space:]]*HTTP_MAPS=//p' "$log" | tail -n 1)
        printf '%s,%s,%s,%s,ok,%s,%s,%s\n' "$v" "$job" $((t1 - t0)) "$jhs_ms" "$checksum" "$mpi_maps" "$http_maps" >>"$csv"
        rows+=("$(printf '%-8s %-26s %10.1f %12s %9s %9s %8s %s' "$v" "${job:--}" "$(awk -v m=$((t1 - t0)) 'BEGIN { print m / 1000 }')" \
            "$([[ -n $jhs_ms ]] && awk -v m="$jhs_ms" 'BEGIN { printf "%.1f", m / 1000 }' || echo -)" "${mpi_maps:--}" "${http_maps:--}" ok "$checksum")")
    done
    {
        printf '\nTeraSort: %s rows, %s reducers, %s nodes, pool %s\n' "$JVMREUSE_TERASORT_ROWS" "$HPC_REDUCERS" "$HPC_N" "$JVMREUSE_POOL"
        printf '%-8s %-26s %10s %12s %9s %9s %8s %s\n' shuffle job client_s job_s\(JHS\) mpi_maps http_maps validate checksum
        printf '%s\n' "${rows[@]}"
    } | tee "$HPC_OUT/terasort-compare.txt"
    if (($(cut -d, -f6 "$csv" | tail -n +2 | sort -u | wc -l) > 1)); then
        _hpc_log "ERROR: the variants' teravalidate checksums differ: $csv"
        return 1
    fi
}

_hpc_workload_command() {
    _hpc_log "running the command: $JVMREUSE_COMMAND (log: logs/workload.log)"
    if ! JVMREUSE_OUTPUT_DIR=$HPC_OUT JVMREUSE_WORKLOADS_JAR=$HPC_WORKLOADS_JAR JVMREUSE_EXAMPLES_JAR=$HPC_EXAMPLES_JAR \
        _hpc_run "$HPC_OUT/logs/workload.log" bash -c "source \"\$1\" && eval \"\$2\"" _ "$HPC_WORK/master/env.sh" "$JVMREUSE_COMMAND"; then
        _hpc_show_log "$HPC_OUT/logs/workload.log"
        _hpc_log "ERROR: the command failed"
        return 1
    fi
}
