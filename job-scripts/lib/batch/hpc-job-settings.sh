# shellcheck shell=bash disable=SC2034 # globals (HPC_*) are shared by the hpc-job*.sh files
#
# hpc-job-settings.sh -- the job's settings: defaults, the config file and the environment, their
# checks, the build check.
# Part of the HPC job library; sourced by hpc-job.sh, which documents the whole.

# ---------------------------------------------------------------------------------------------
# Settings

# Finds the repository (the job script is usually run from a copy in the scheduler's spool):
# JVMREUSE_HOME, else the submit/work dir or the script's dir if they hold job-scripts/lib/batch/hpc-job.sh.
_hpc_find_repo() {
    local c
    for c in "${JVMREUSE_HOME:-}" "$HPC_LIB/../../.." "${SLURM_SUBMIT_DIR:-}" "${PJM_O_WORKDIR:-}" "$PWD"; do
        if [[ -n $c && -f $c/job-scripts/lib/batch/hpc-job.sh && -f $c/job-scripts/conf/jvmreuse-job.conf ]]; then
            (cd "$c" && pwd -P)
            return 0
        fi
    done
    return 1
}

# Applies defaults, then the config file, then the environment (which wins).
_hpc_load_settings() {
    local kv name saved=() conf
    for kv in "${HPC_SETTINGS[@]}"; do
        name=${kv%%=*}
        if [[ -n ${!name+x} ]]; then
            saved+=("$name=${!name}")
        fi
    done
    for kv in "${HPC_SETTINGS[@]}"; do
        printf -v "${kv%%=*}" '%s' "${kv#*=}"
    done
    conf=${JVMREUSE_JOB_CONF:-$HPC_REPO/job-scripts/conf/jvmreuse-job.conf}
    if [[ ! -r $conf ]]; then
        _hpc_die "the config file JVMREUSE_JOB_CONF=$conf does not exist or is not readable"
    fi
    # shellcheck source=/dev/null
    if ! source "$conf"; then
        _hpc_die "the config file $conf has an error (it is a bash fragment of NAME=value lines)"
    fi
    HPC_CONF_FILE=$(cd "$(dirname "$conf")" && pwd -P)/$(basename "$conf")
    for kv in ${saved[@]+"${saved[@]}"}; do
        printf -v "${kv%%=*}" '%s' "${kv#*=}"
    done
    for kv in "${HPC_SETTINGS[@]}"; do
        # shellcheck disable=SC2163 # exports the variable named by the expansion
        export "${kv%%=*}"
    done
}

# Seconds of a time limit: S, M:SS, H:MM:SS, D-H:MM:SS; empty for UNLIMITED or junk.
_hpc_seconds() {
    local v=$1 d=0 h=0 m=0 s=0
    if [[ $v =~ ^([0-9]+)-([0-9]+):([0-9]+):([0-9]+)$ ]]; then
        d=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]} m=${BASH_REMATCH[3]} s=${BASH_REMATCH[4]}
    elif [[ $v =~ ^([0-9]+)-([0-9]+)$ ]]; then
        d=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]}
    elif [[ $v =~ ^([0-9]+):([0-9]+):([0-9]+)$ ]]; then
        h=${BASH_REMATCH[1]} m=${BASH_REMATCH[2]} s=${BASH_REMATCH[3]}
    elif [[ $v =~ ^([0-9]+):([0-9]+)$ ]]; then
        m=${BASH_REMATCH[1]} s=${BASH_REMATCH[2]}
    elif [[ $v =~ ^[0-9]+$ ]]; then
        s=$v
    else
        return 0
    fi
    printf '%s' $((10#$d * 86400 + 10#$h * 3600 + 10#$m * 60 + 10#$s))
}

_hpc_job_id() {
    case $HPC_SCHED in
        slurm) printf '%s' "${SLURM_JOB_ID:-}" ;;
        pjm) printf '%s' "${PJM_JOBID:-}" ;;
    esac
}

# Checks every setting that does not need the allocation; dies with a clear message.
_hpc_validate_settings() {
    local name problem
    problem=$(jvmreuse_settings_check) || _hpc_die "$problem"
    jvmreuse_conf_check || _hpc_die "fix the configuration overrides above (JVMREUSE_CONF_OVERRIDES, JVMREUSE_*_EXTRA)"
    case $JVMREUSE_WORKLOAD in
        pagerank | kmeans | terasort-compare) ;;
        command)
            [[ -n $JVMREUSE_COMMAND ]] || _hpc_die "JVMREUSE_WORKLOAD=command needs JVMREUSE_COMMAND (a bash command line)"
            ;;
        *) _hpc_die "unknown workload JVMREUSE_WORKLOAD='$JVMREUSE_WORKLOAD' (known: pagerank, kmeans, terasort-compare, command)" ;;
    esac
    for name in JVMREUSE_ITERATIONS JVMREUSE_PAGERANK_NODES JVMREUSE_KMEANS_POINTS JVMREUSE_KMEANS_K \
        JVMREUSE_KMEANS_DIMENSIONS JVMREUSE_TERASORT_ROWS JVMREUSE_AM_MEMORY JVMREUSE_START_TIMEOUT \
        JVMREUSE_WALLTIME_MARGIN; do
        [[ ${!name} =~ ^[1-9][0-9]*$ ]] || _hpc_die "$name must be a whole number >= 1 (got '${!name}')"
    done
    for name in JVMREUSE_REDUCERS JVMREUSE_VCORES JVMREUSE_NODE_MEMORY JVMREUSE_PORT_BASE; do
        [[ -z ${!name} || ${!name} =~ ^[1-9][0-9]*$ ]] || _hpc_die "$name must be empty or a whole number >= 1 (got '${!name}')"
    done
    for name in JVMREUSE_POOL JVMREUSE_VERIFY; do
        [[ ${!name} == [01] ]] || _hpc_die "$name must be 0 or 1 (got '${!name}')"
    done
    [[ $JVMREUSE_BIND_ADDR =~ ^(auto|host|any)$ ]] || _hpc_die "JVMREUSE_BIND_ADDR must be auto, host or any (got '$JVMREUSE_BIND_ADDR')"
    # shellcheck disable=SC2153 # set by _hpc_load_settings
    if ((JVMREUSE_TASK_MEMORY > JVMREUSE_NM_MEMORY || JVMREUSE_AM_MEMORY > JVMREUSE_NM_MEMORY)); then
        _hpc_die "JVMREUSE_NM_MEMORY ($JVMREUSE_NM_MEMORY MB) must hold one task ($JVMREUSE_TASK_MEMORY MB) and the AppMaster ($JVMREUSE_AM_MEMORY MB)"
    fi
    if [[ $JVMREUSE_WORKLOAD == terasort-compare ]]; then
        local v
        [[ -n $JVMREUSE_TERASORT_VARIANTS ]] || _hpc_die "JVMREUSE_TERASORT_VARIANTS is empty (known: http mpi)"
        for v in $JVMREUSE_TERASORT_VARIANTS; do
            case $v in
                http) ;;
                mpi)
                    if [[ $JVMREUSE_POOL != 1 || $JVMREUSE_MPI_SHUFFLE != 1 ]]; then
                        _hpc_die "the terasort variant 'mpi' needs the pools' Shuffle Manager: JVMREUSE_POOL=1 and JVMREUSE_MPI_SHUFFLE=1 (or JVMREUSE_TERASORT_VARIANTS=http)"
                    fi
                    [[ $JVMREUSE_HADOOP_MPI_SHUFFLE == 1 ]] ||
                        _hpc_die "the terasort variant 'mpi' needs the MPI shuffle, which is not built for Hadoop $JVMREUSE_HADOOP_VERSION yet (JVMREUSE_TERASORT_VARIANTS=http)"
                    ;;
                *) _hpc_die "unknown terasort variant '$v' in JVMREUSE_TERASORT_VARIANTS (known: http mpi)" ;;
            esac
        done
    fi
    if [[ -n $JVMREUSE_INPUT ]]; then
        if [[ $JVMREUSE_WORKLOAD == command ]]; then
            _hpc_die "JVMREUSE_INPUT is not used by JVMREUSE_WORKLOAD=command (name the input in JVMREUSE_COMMAND)"
        fi
        local path=${JVMREUSE_INPUT#file://}
        if [[ $path == hdfs://* ]]; then
            [[ $JVMREUSE_HDFS == 1 ]] || _hpc_die "JVMREUSE_INPUT=$JVMREUSE_INPUT is on HDFS, but JVMREUSE_HDFS=0"
            _hpc_die "JVMREUSE_INPUT on HDFS is not supported: the job's HDFS is new and empty; give a path on the shared file system (with JVMREUSE_HDFS=1 it is copied in)"
        elif [[ $path != /* ]]; then
            _hpc_die "JVMREUSE_INPUT must be an absolute path (got '$JVMREUSE_INPUT')"
        elif [[ ! -e $path ]]; then
            _hpc_die "the input path JVMREUSE_INPUT=$JVMREUSE_INPUT does not exist"
        elif [[ ! -r $path ]]; then
            _hpc_die "the input path JVMREUSE_INPUT=$JVMREUSE_INPUT is not readable"
        fi
    fi
    case ${JVMREUSE_POOL_LAUNCHER:=$([[ $HPC_SCHED == slurm ]] && echo mpirun || echo mpiexec)} in
        mpirun | srun | mpiexec) ;;
        *) _hpc_die "JVMREUSE_POOL_LAUNCHER must be mpirun, srun or mpiexec (got '$JVMREUSE_POOL_LAUNCHER')" ;;
    esac
    case ${JVMREUSE_NM_LAUNCHER:=$([[ $HPC_SCHED == slurm ]] && echo srun || echo mpi)} in
        srun | mpi) ;;
        *) _hpc_die "JVMREUSE_NM_LAUNCHER must be srun or mpi (got '$JVMREUSE_NM_LAUNCHER')" ;;
    esac
    if [[ $JVMREUSE_POOL_LAUNCHER == srun || $JVMREUSE_NM_LAUNCHER == srun ]] && ! command -v srun >/dev/null 2>&1; then
        _hpc_die "srun is not on PATH, but JVMREUSE_POOL_LAUNCHER=$JVMREUSE_POOL_LAUNCHER / JVMREUSE_NM_LAUNCHER=$JVMREUSE_NM_LAUNCHER need it"
    fi
    if [[ $JVMREUSE_POOL_LAUNCHER == mpiexec || $JVMREUSE_NM_LAUNCHER == mpi || $HPC_SCHED == pjm ]]; then
        command -v "$JVMREUSE_MPIEXEC" >/dev/null 2>&1 ||
            _hpc_die "the MPI launcher JVMREUSE_MPIEXEC=$JVMREUSE_MPIEXEC is not on PATH (needed to start per-node ranks)"
    fi
    export JVMREUSE_POOL_LAUNCHER JVMREUSE_NM_LAUNCHER
}

# JVMREUSE_HADOOP_VERSION is one the build knows (core/hadoop-version.sh), checked before anything
# else: an unknown one is refused, never run as another.
_hpc_check_hadoop_version() {
    local problem
    problem=$(jvmreuse_hadoop_version_check) || _hpc_die "$problem"
}

# Checks the build: Hadoop's jars, the workloads and examples jars, the pool and the MPI shuffle.
_hpc_validate_build() {
    HPC_WORKLOADS_JAR=$(find "$HPC_REPO/workloads/target" -maxdepth 1 -name 'workloads-*.jar' ! -name '*-sources.jar' \
        ! -name '*-tests.jar' 2>/dev/null | head -n 1)
    HPC_EXAMPLES_JAR=$JVMREUSE_HADOOP_EXAMPLES_JAR
    local jar
    for jar in "${JVMREUSE_HADOOP_JARS[@]}"; do
        [[ -f $JVMREUSE_HADOOP_LIB/$jar ]] ||
            _hpc_die "the Hadoop $JVMREUSE_HADOOP_VERSION jars are not in $JVMREUSE_HADOOP_LIB ($jar is missing): run job-scripts/setup.sh on a login node first"
    done
    case $JVMREUSE_WORKLOAD in
        pagerank | kmeans | terasort-compare) # terasort-compare times its jobs with the workloads' job-time
            [[ -n $HPC_WORKLOADS_JAR ]] || _hpc_die "the workloads jar (workloads/target/workloads-*.jar) is missing: run job-scripts/setup.sh"
            ;;&
        terasort-compare)
            [[ -f $HPC_EXAMPLES_JAR ]] || _hpc_die "$HPC_EXAMPLES_JAR is missing: run job-scripts/setup.sh"
            ;;
    esac
    if [[ $JVMREUSE_POOL == 1 ]]; then
        (jvmreuse_load_build "$HPC_REPO") || _hpc_die "JVMREUSE_POOL=1 needs the built pool (see above), or set JVMREUSE_POOL=0"
        jvmreuse_load_build "$HPC_REPO"
        [[ -n $JVMREUSE_PATCH_JAR ]] || _hpc_die "JVMREUSE_POOL=1 needs the hadoop-patch jar (hadoop-patch/target/hadoop-patch-*.jar): run job-scripts/setup.sh"
        if [[ $JVMREUSE_MPI_SHUFFLE == 1 && -z $JVMREUSE_MPI_SHUFFLE_JAR ]]; then
            _hpc_die "JVMREUSE_MPI_SHUFFLE=1 needs $JVMREUSE_HADOOP_MPI_SHUFFLE_MODULE/target/$JVMREUSE_HADOOP_MPI_SHUFFLE_MODULE-*.jar: run job-scripts/setup.sh (or JVMREUSE_MPI_SHUFFLE=0)"
        fi
        HPC_MPIRUN=${JVMREUSE_MPIRUN:-$MPIRUN}
        if [[ $JVMREUSE_POOL_LAUNCHER == mpirun ]] && ! command -v "$HPC_MPIRUN" >/dev/null 2>&1; then
            _hpc_die "mpirun ($HPC_MPIRUN) is not there: set JVMREUSE_MPIRUN or JVMREUSE_POOL_LAUNCHER"
        fi
    fi
    JVMREUSE_CLUSTER_JAVA=${JVMREUSE_JAVA_HOME:-${JAVA_HOME:-}}
    jvmreuse_java_home || _hpc_die "no usable JDK: set JVMREUSE_JAVA_HOME"
    export HPC_WORKLOADS_JAR HPC_EXAMPLES_JAR JVMREUSE_CLUSTER_JAVA_HOME
}
