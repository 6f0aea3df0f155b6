# shellcheck shell=bash
#
# hpc-job-modes.sh -- what an HPC job does with its cluster once it is up (sourced by hpc-job.sh):
#
#   JVMREUSE_MODE=batch        run the workload, then stop everything (the default)
#   JVMREUSE_MODE=interactive  run no workload: write <output>/env.sh, keep the cluster up until the
#                              walltime margin, scancel/pjdel, or `touch <output>/end`, then stop it
#   JVMREUSE_MODE=setup-only   write <output>/env.sh, source it into the job script's shell and
#                              return from hpc_job_main: the rest of the job script uses the cluster;
#                              it is stopped when the script exits (or at the walltime margin)
#
# and the user's hooks around the workload: JVMREUSE_PRE_HOOK (cluster ready, before the workload)
# and JVMREUSE_POST_HOOK (after the workload, before the teardown, also when the workload failed).
# Both are bash command lines run with the cluster's environment (<output>/env.sh).

# Checks JVMREUSE_MODE and the hooks before anything starts. Outside batch mode no workload runs
# (JVMREUSE_WORKLOAD becomes "none", so that nothing looks for its results).
_hpc_mode_validate() {
    local name word
    case $JVMREUSE_MODE in
        batch) ;;
        interactive | setup-only) export JVMREUSE_WORKLOAD=none ;;
        *) _hpc_die "unknown mode JVMREUSE_MODE='$JVMREUSE_MODE' (known: batch, interactive, setup-only)" ;;
    esac
    for name in JVMREUSE_PRE_HOOK JVMREUSE_POST_HOOK; do
        read -r word _ <<<"${!name}"
        # A hook naming a file (a word with a slash) must be one that can run.
        if [[ $word == */* && ! -x $word ]]; then
            _hpc_die "the hook $name=${!name}: $word is not an executable file"
        fi
    done
}

# Writes <output>/env.sh: what a shell on the allocation sources to use the cluster.
_hpc_mode_write_env() {
    local path=$HPC_WORK/master/bin:$HPC_REPO/job-scripts/bin sockets=''
    [[ $JVMREUSE_POOL != 1 ]] || sockets=$HPC_SOCKET_DIR
    [[ -z ${JVMREUSE_CLIENT:-} ]] || path+=:$(dirname "$JVMREUSE_CLIENT")
    path+=:$JVMREUSE_CLUSTER_JAVA_HOME/bin
    {
        printf '# . %s -- the environment of JVM Reuse Hadoop job %s (%s mode, written when its cluster was ready)\n' \
            "$HPC_OUT/env.sh" "$HPC_JOB_ID" "$JVMREUSE_MODE"
        printf 'export HADOOP_CONF_DIR=%q\n' "$HPC_WORK/master/conf"
        printf 'export YARN_CONF_DIR=%q\n' "$HPC_WORK/master/conf"
        printf 'export JAVA_HOME=%q\n' "$JVMREUSE_CLUSTER_JAVA_HOME"
        # shellcheck disable=SC2016 # $PATH is expanded when env.sh is sourced
        printf 'export PATH=%q:"$PATH"\n' "$path"
        printf 'export JVMREUSE_OUTPUT_DIR=%q\n' "$HPC_OUT"
        printf 'export JVMREUSE_WORKLOADS_JAR=%q\n' "${HPC_WORKLOADS_JAR:-}"
        printf 'export JVMREUSE_EXAMPLES_JAR=%q\n' "$HPC_EXAMPLES_JAR"
        printf 'export JVMREUSE_RM_WEB=%q\n' "http://$HPC_MASTER_ADDR:$(_hpc_port rm_web)"
        printf 'export JVMREUSE_JHS_WEB=%q\n' "http://$HPC_MASTER_ADDR:$(_hpc_port jhs_web)"
        printf 'export JVMREUSE_POOL_SOCKETS=%q\n' "$sockets"
        printf 'export JVMREUSE_JOB_END=%q\n' "${HPC_DEADLINE:-}"
    } >"$HPC_OUT/env.sh"
}

# A hook's command line: bash -c SCRIPT NAME ENV_FILE HOOK runs HOOK with the cluster's environment.
# shellcheck disable=SC2016 # expanded by that bash
HPC_MODE_HOOK=(bash -c 'source "$1" && eval "$2"')

# The cluster is ready: env file, pre hook, then per mode: batch returns to run the workload;
# interactive waits and exits (the EXIT trap stops everything); setup-only sources the env file
# and starts the watchdog of the walltime margin.
_hpc_mode_ready() {
    local status=0 log=$HPC_OUT/logs/pre-hook.log
    _hpc_mode_write_env
    if [[ -n $JVMREUSE_PRE_HOOK ]]; then
        _hpc_log "pre-job hook: $JVMREUSE_PRE_HOOK (log: logs/pre-hook.log)"
        _hpc_run "$log" "${HPC_MODE_HOOK[@]}" pre-hook "$HPC_OUT/env.sh" "$JVMREUSE_PRE_HOOK" || status=$?
        if ((status != 0)); then
            _hpc_show_log "$log"
            _hpc_die "the pre-job hook JVMREUSE_PRE_HOOK failed (status $status): no workload runs; stopping the cluster"
        fi
    fi
    HPC_MODE_POST_HOOK_DUE=1
    case $JVMREUSE_MODE in
        interactive) _hpc_mode_interactive ;;
        setup-only)
            _hpc_log "setup-only: the cluster is up; the job script goes on with its environment ($HPC_OUT/env.sh);" \
                "everything stops when the script exits$([[ -z ${HPC_DEADLINE:-} ]] || echo " or at $(date -d "@$HPC_DEADLINE" +%H:%M:%S) (the walltime margin)")"
            # shellcheck source=/dev/null
            source "$HPC_OUT/env.sh"
            _hpc_mode_watchdog
            ;;
    esac
}

# Interactive: nothing runs; the cluster stays up until the margin, a signal, or <output>/end.
_hpc_mode_interactive() {
    _hpc_log "interactive: the cluster stays up until $([[ -n ${HPC_DEADLINE:-} ]] &&
        echo "$(date -d "@$HPC_DEADLINE" +%H:%M:%S) (the walltime margin)" || echo 'the job is cancelled'). From a shell on the allocation" \
        "(e.g. srun --overlap --jobid $HPC_JOB_ID --pty bash, or ssh $HPC_MASTER):  . $HPC_OUT/env.sh  then hadoop jar ...," \
        "yarn node -list, mapred job -list. End it early: touch $HPC_OUT/end (with the post hook) or scancel/pjdel"
    while [[ ! -e $HPC_OUT/end ]]; do
        [[ -z ${HPC_DEADLINE:-} ]] || (($(date +%s) < HPC_DEADLINE)) || break
        sleep 1
    done
    _hpc_phase interactive
    if [[ -e $HPC_OUT/end ]]; then
        _hpc_log "interactive: $HPC_OUT/end is there: stopping the cluster"
    else
        _hpc_log "interactive: the walltime margin is here: stopping the cluster"
    fi
    exit 0
}

# Setup-only: a background watchdog sends the job script TERM at the walltime margin (the user's
# commands run in the foreground, so the deadline checks of the batch mode do not run).
_hpc_mode_watchdog() {
    [[ -n ${HPC_DEADLINE:-} ]] || return 0
    (
        trap - TERM INT
        while (($(date +%s) < HPC_DEADLINE)); do
            sleep 1
        done
        _hpc_log "setup-only: the walltime margin is here and the job script still runs: stopping everything"
        kill -TERM $$
    ) </dev/null &
    printf '%s\n' "$!" >"$HPC_WORK/master/pids/watchdog.pid"
}

# In the teardown (signals ignored): runs the post hook when it is due (the pre hook passed) and
# the stop is not the fast one of a signal or the time limit. Returns the job's status: $1, or 1
# when the post hook failed after a good run. It gets the time left before the walltime margin
# plus half the margin, then it is killed.
_hpc_mode_post_hook() {
    local status=$1 hook=0 limit=() secs log=$HPC_OUT/logs/post-hook.log
    [[ -n $JVMREUSE_POST_HOOK && -n ${HPC_MODE_POST_HOOK_DUE:-} ]] || return "$status"
    if [[ -n ${HPC_FAST:-} ]]; then
        _hpc_log "post-job hook skipped: stopping after a signal or at the time limit"
        return "$status"
    fi
    if [[ -n ${HPC_DEADLINE:-} ]]; then
        secs=$((HPC_DEADLINE + JVMREUSE_WALLTIME_MARGIN / 2 - $(date +%s)))
        limit=(timeout -k 5 $((secs < 5 ? 5 : secs)))
    fi
    _hpc_log "post-job hook: $JVMREUSE_POST_HOOK (log: logs/post-hook.log)"
    ${limit[@]+"${limit[@]}"} "${HPC_MODE_HOOK[@]}" post-hook "$HPC_OUT/env.sh" "$JVMREUSE_POST_HOOK" \
        </dev/null >>"$log" 2>&1 || hook=$?
    if ((hook != 0)); then
        _hpc_show_log "$log"
        _hpc_log "ERROR: the post-job hook JVMREUSE_POST_HOOK failed (status $hook$( ((hook != 124)) || echo ': out of time'))"
        ((status != 0)) || status=1
    fi
    return "$status"
}
