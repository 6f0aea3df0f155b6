# shellcheck shell=bash source-path=SCRIPTDIR disable=SC2034 # globals (HPC_*) are shared by the hpc-job*.sh files
#
# hpc-job.sh -- the shared library of the JVM Reuse Hadoop batch jobs on Slurm and PJM
# (job-scripts/sbatch/*.sbatch, job-scripts/pjsub/*.pjsub). A job script sources it and calls
#
#   hpc_job_main slurm|pjm      read the settings, check them and the allocation, then start
#                               RM + JobHistory (+ HDFS) on the master, the pools (ONE MPI launch
#                               over the allocation), one NodeManager per node, run the workload,
#                               collect logs, timings and pictures, and stop everything by PID
#                               (also on scancel/pjdel, errors and before the time limit)
#
# The per-node agent (NodeManager, optionally DataNode) is job-scripts/lib/batch/hpc-node.sh, started on
# every node with `srun --overlap -N1 -n1 -w NODE` (Slurm) or as the ranks of one MPI launch with
# one rank per node (PJM, where there is no ssh or srun between nodes). Settings: see
# job-scripts/conf/jvmreuse-job.conf and docs/job-scripts.md. The caller uses `set -euo pipefail`.
#
# The phases live in hpc-job-{settings,nodes,config,start,modes,workloads,teardown}.sh (one file
# each, beside this file in lib/batch, sourced below; docs/job-scripts.md "Layout of
# job-scripts/lib"); the core they share is lib/core (core.sh: defaults.sh, hadoop-env.sh,
# hadoop-conf.sh, hadoop-daemons.sh, pool.sh, ports.sh, processes.sh).
#
# Nodes are named after the allocation's node list (SLURMD_NODENAME-like names), never after
# `hostname`: several "nodes" may share one host (the Slurm testbed), so per-node dirs, ports and
# pool sockets are all per node name / node index.

# shellcheck source=job-scripts/lib/core/core.sh
source "$(dirname "${BASH_SOURCE[0]}")/../core/core.sh"
# The phases, one file each (checked on their own by shellcheck).
for _hpc_part in settings nodes config start modes workloads teardown; do
    # shellcheck source=/dev/null
    source "$(dirname "${BASH_SOURCE[0]}")/hpc-job-$_hpc_part.sh"
done
unset _hpc_part

HPC_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

_hpc_log() { JVMREUSE_LOG_TIME=1 jvmreuse_log jvmreuse-job "$@"; }
_hpc_die() {
    _hpc_log "ERROR: $*"
    exit 1
}

# Every setting of the job, with its default (defaults.sh; conf/jvmreuse-job.conf documents them).
HPC_SETTINGS=("${JVMREUSE_DEFAULTS[@]}" "${JVMREUSE_JOB_DEFAULTS[@]}")

_hpc_phase() {
    local now
    now=$(date +%s)
    HPC_PHASES+=("$1,$((now - HPC_PHASE_T))")
    HPC_PHASE_T=$now
}

# ---------------------------------------------------------------------------------------------
# Main

hpc_job_main() {
    HPC_SCHED=${1:?hpc_job_main slurm|pjm}
    [[ $HPC_SCHED == slurm || $HPC_SCHED == pjm ]] || _hpc_die "hpc_job_main: unknown scheduler '$HPC_SCHED' (slurm or pjm)"
    HPC_T0=$(date +%s)
    HPC_PHASE_T=$HPC_T0
    HPC_PHASES=()
    HPC_REPO=$(_hpc_find_repo) || _hpc_die "cannot find the jvmreuse checkout: set JVMREUSE_HOME to it (the scheduler runs a copy of the job script)"
    HPC_CONF_DIR=$HPC_REPO/job-scripts/conf
    # The sbin dirs and the repository's job clients.
    local sbin
    for sbin in /usr/local/sbin /usr/sbin /sbin; do
        [[ :$PATH: == *:$sbin:* ]] || PATH=$PATH:$sbin
    done
    export PATH
    _hpc_load_settings
    _hpc_check_hadoop_version
    jvmreuse_hadoop_locate "$HPC_REPO"
    JVMREUSE_DAEMON_HEAP=${JVMREUSE_DAEMON_HEAP:-1000m}
    JVMREUSE_STOP_TIMEOUT=${JVMREUSE_STOP_TIMEOUT:-10}

    # 1. Everything that can be wrong is checked before anything starts.
    _hpc_validate_settings
    _hpc_mode_validate
    _hpc_read_nodes
    _hpc_check_memory
    _hpc_validate_build
    HPC_REDUCERS=${JVMREUSE_REDUCERS:-$HPC_N}
    HPC_MASTER_ADDR=${JVMREUSE_MASTER_ADDR:-$(uname -n)}
    _hpc_places
    _hpc_pick_ports
    _hpc_engine
    _hpc_log "job $(_hpc_job_id) ($HPC_SCHED): $HPC_N nodes (${HPC_NODES[*]}), master $HPC_MASTER ($HPC_MASTER_ADDR), mode $JVMREUSE_MODE, workload $JVMREUSE_WORKLOAD, Hadoop $JVMREUSE_HADOOP_VERSION"
    _hpc_log "config $HPC_CONF_FILE; output $HPC_OUT; ports from $HPC_PORT_BASE; memory: $HPC_MEMORY_LINE"
    local limits # what pools do not do on this Hadoop, and tasks that would not fit them
    if [[ $JVMREUSE_POOL == 1 ]]; then
        for limits in "$(jvmreuse_hadoop_pool_limits)" "$(jvmreuse_slot_heap_warning)"; do
            [[ -z $limits ]] || _hpc_log "$limits"
        done
    fi

    # 2. From here on, whatever happens, everything is stopped.
    mkdir -p "$HPC_OUT/logs" "$HPC_OUT/timings" "$HPC_WORK/master/logs" "$HPC_WORK/master/pids" "$HPC_WORK/tmp" "$HPC_DATA"
    HPC_CHILD=
    trap '_hpc_teardown' EXIT
    trap '_hpc_on_signal TERM' TERM
    trap '_hpc_on_signal INT' INT
    _hpc_set_deadline
    local v
    for v in "${HPC_SETTINGS[@]}"; do
        v=${v%%=*}
        printf '%s=%q\n' "$v" "${!v}"
    done >"$HPC_OUT/settings.txt"
    _hpc_write_configs
    _hpc_write_job_env
    jvmreuse_write_clients "$HPC_WORK/master"
    export JVMREUSE_JOB_WORK=$HPC_WORK
    _hpc_phase prepare

    # 3. Daemons, pools, NodeManagers.
    JVMREUSE_ENGINE_DEADLINE=$(($(date +%s) + JVMREUSE_START_TIMEOUT))
    jvmreuse_engine_start || _hpc_die "the cluster did not start (the reason is above; logs: $HPC_WORK/master/logs, $HPC_WORK/nodes/*/logs)"
    _hpc_phase startup
    _hpc_log "cluster ready in $(($(date +%s) - HPC_T0)) s: $HPC_N NodeManagers; RM http://$HPC_MASTER_ADDR:$(_hpc_port rm_web)," \
        "JobHistory http://$HPC_MASTER_ADDR:$(_hpc_port jhs_web); clients: . $HPC_WORK/master/env.sh"
    _hpc_mode_ready
    [[ $JVMREUSE_MODE != setup-only ]] || return 0

    # 4. The workload.
    local status=0
    case $JVMREUSE_WORKLOAD in
        pagerank) _hpc_workload_pagerank || status=$? ;;
        kmeans) _hpc_workload_kmeans || status=$? ;;
        terasort-compare) _hpc_workload_terasort_compare || status=$? ;;
        command) _hpc_workload_command || status=$? ;;
    esac
    _hpc_phase workload
    if ((status == 0)); then
        _hpc_log "the workload $JVMREUSE_WORKLOAD succeeded${HPC_VERIFIED:+; $HPC_VERIFIED}"
    else
        _hpc_log "ERROR: the workload $JVMREUSE_WORKLOAD failed (status $status); logs in $HPC_OUT/logs"
    fi
    exit "$status"
}
