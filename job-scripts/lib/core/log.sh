# shellcheck shell=bash
#
# log.sh -- the one log function of the job scripts: every library's own log function
# (_jvmreuse_cluster_log, _hpc_log, _jvmreuse_slurm_log, ...) is this one with its tag. Sourced.
#
#   jvmreuse_log TAG MESSAGE...    prints "[TAG] MESSAGE" to stderr; with JVMREUSE_LOG_TIME=1 set
#                                  for the call, "[TAG] HH:MM:SS MESSAGE"

jvmreuse_log() {
    local tag=$1
    shift
    if [[ ${JVMREUSE_LOG_TIME:-0} == 1 ]]; then
        printf '[%s] %(%H:%M:%S)T %s\n' "$tag" -1 "$*" >&2
    else
        printf '[%s] %s\n' "$tag" "$*" >&2
    fi
}
