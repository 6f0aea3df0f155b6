# shellcheck shell=bash
#
# pool.sh -- start, wait for, and stop a JVM Reuse launch under mpirun: one pool per node, or
# several pools per node (JVMREUSE_POOLS), all of them ranks of ONE mpirun (one MPI world).
# "mpirun" is the MPIRUN of the MPI env file: Open MPI's mpirun or MPICH's Hydra mpiexec, each
# with the options that keep a launch alive when a slot dies or retires (docs/mpi.md, "Launchers").
# Sourced by core.sh (so by every deployment), bin/jvmreuse-pool and bench/*; the caller uses `set -euo pipefail`.
#
#   jvmreuse_load_build <repo>      sets POOL_JAR BOOT_JAR ASM_JAR NATIVE_DIR JVMREUSE_CLIENT and,
#                                   from the MPI env file (JVMREUSE_MPI_ENV, default build/mpi.env,
#                                   written by setup.sh), MPI_IMPL MPI_LAUNCHER MPIRUN
#                                   MPI_NATIVE_LIB MPI_JAVA_JAR MPI_JAVA_LIBDIR
#   jvmreuse_launcher_kind <mpirun> prints openmpi or hydra
#   jvmreuse_mpi_backend            the MPI backend's JVM options (JVMREUSE_MPI_BACKEND)
#   jvmreuse_bench_jar <repo>       sets BENCH_JAR: the benchmark programs' jar
#                                   (benchmarks/target/benchmarks-*.jar)
#   jvmreuse_mpi_program_command    fills JVMREUSE_MPI_PROGRAM_CMD: N ranks of a program (its jars
#                                   before the pool jar, e.g. BENCH_JAR) on the pool's MPI
#   jvmreuse_pool_program           fills the array JVMREUSE_POOL_PROGRAM, what every rank of the
#                                   launch runs (exec-jvm, the JVM, PoolMain and its options), and
#                                   the launch's shape: JVMREUSE_POOL_RANKS_PER_NODE (pools per node
#                                   x (slots + 1 + spares)), JVMREUSE_POOL_NODES and
#                                   JVMREUSE_POOL_MPI_KIND (openmpi or hydra: MPIRUN's, the MPI
#                                   whose library the ranks use)
#   jvmreuse_pool_mpirun            fills JVMREUSE_POOL_MPIRUN, the launcher for that shape: MPIRUN
#                                   and the options its kind needs (after jvmreuse_pool_program;
#                                   HPC jobs may put srun or mpiexec in its place)
#   jvmreuse_pool_command           fills JVMREUSE_POOL_CMD: the launcher, then the program
#   jvmreuse_pool_sockets           prints the control sockets of this host's pools, one a line
#   jvmreuse_pool_pid_file          prints the file that holds the launch's mpirun PID
#   jvmreuse_pool_start             starts it in the background and waits until every slot of
#                                   every pool of this host is up
#   jvmreuse_pool_stop              asks every pool to stop; ends mpirun by PID if it does not
#   jvmreuse_pool_status_json <socket>  prints that pool's state as one line of JSON (status 1: no answer)
#   jvmreuse_status_field <json> <member>  prints a top-level number or string of that JSON
#   jvmreuse_status_slots <json>    prints "N (free F, busy B, starting S, retired R)"
#
# Settings (environment; the CLI sets them from its options):
#   JVMREUSE_MPI_ENV     the MPI env file (default build/mpi.env; build/mpich.env for MPICH)
#   JVMREUSE_MPI_BACKEND native or java (default: native where built, else java)
#   JVMREUSE_SLOTS       slots per pool (default: JVMREUSE_CONTAINER_LIMIT, the most containers
#                        the node's NodeManager runs at once, if set; else the node's cores)
#   JVMREUSE_SPARES      spare ranks per pool (default 0): JVMs started with the pool that wait,
#                        not warmed up, to take the place of a slot that retires or dies, so that
#                        the pool keeps its slot count (PoolMain --spares; docs/design.md, "Spare
#                        ranks"). Each is one more JVM per pool, idle until needed
#   JVMREUSE_AM_SLOTS    at most this many slots per pool run application masters (jvmreuse run
#                        --kind am) at once, 0 to N (default: half the slots, rounded up, at
#                        most slots - 1, so one is left to tasks); more
#                        wait while the tasks behind them go first (PoolMain --am-slots;
#                        docs/design.md, "Application masters and tasks share slots")
#   JVMREUSE_NODES       nodes to start pools on (default 1: this host)
#   JVMREUSE_POOLS       pools per node in this launch (default 1). With more than 1, each
#                        SLOTS+1+SPARES consecutive ranks form a pool (PoolMain --ranks-per-pool) and
#                        JVMREUSE_SOCKET must hold %i or %n
#   JVMREUSE_SOCKET      control socket (default /tmp/jvmreuse-<uid>/pool.sock; with several pools
#                        /tmp/jvmreuse-<uid>/pool-%i.sock). PoolMain fills in %h (host name),
#                        %i (pool index from 0) and %n (pool number from 1 = index + 1)
#   JVMREUSE_POOL_LOG_DIR  the pools' log dir, same placeholders (default: <socket dir>/logs)
#   JVMREUSE_POOL_PID_FILE  where mpirun's PID goes (default: <socket dir>/pool.pid for one pool;
#                        with several, pools.pid in the socket template's deepest directory
#                        without a placeholder, e.g. D/pools.pid for D/pool%n/pool.sock)
#   JVMREUSE_POOL_MPIRUN_LOG  mpirun's output (default: <pid file dir>/logs/mpirun.log)
#   JVMREUSE_POOL_EXTRA_ARGS  (a bash ARRAY, for scripts that source this file) more PoolMain
#                        options, appended as they are, e.g. (--service CLASS --service-cp CP
#                        --service-opt KEY=VALUE ...)
#   JVMREUSE_MPI_BACKEND native (JNI over the MPI C API; the default where it was built) or java
#                        (Open MPI's Java bindings); see docs/mpi.md
#   JVMREUSE_JAVA        java for the pool JVMs (default: $JAVA_HOME/bin/java, else java on PATH)
#   JVMREUSE_SLOT_HEAP   heap of each slot (and spare) JVM, -Xmx and -Xms (default 1g)
#   JVMREUSE_MANAGER_HEAP  heap of each pool's manager JVM, -Xmx and -Xms (default 128m): it runs
#                        no user code (its direct memory, for the Shuffle Manager, is the slot heap)
#   JVMREUSE_JVM_OPTS    extra options for the pool JVMs (word-split)
#   JVMREUSE_START_TIMEOUT  seconds to wait for the pools (default 120)
#   JVMREUSE_POOL_READY  what "ready" waits for: "warm" (default) every slot started (warmed up);
#                        "answer" every pool's manager answers on its socket, while its slots may
#                        still warm up (the manager sends runs to new JVMs until a slot is free)
#   JVMREUSE_WARMUP_MAIN, JVMREUSE_WARMUP_CP  a program each slot also runs before it serves, with
#                        the class path JVMREUSE_WARMUP_CP shared as runs share it (the Hadoop
#                        cluster runner warms the slots with Hadoop's task code this way)
#   JVMREUSE_WARMUP_MAIN_RUNS  how many runs of it (default 10)
#   JVMREUSE_WARMUP_RUNS runs of the pool's built-in warm-up program (default 20; 0 with
#                        JVMREUSE_WARMUP_MAIN, whose runs take the same run path)
#   JVMREUSE_WARMUP_PARALLEL  at most this many of the user's JVMs warm up at once on a host
#                        (default: a quarter of its CPUs, at least 1; 0: no limit)
#   JVMREUSE_RSS_MARGIN_MB  a slot whose resident memory after a run stays more than this many MiB
#                        above its idle size plus its heap retires (PoolMain --rss-margin-mb;
#                        default 256; docs/design.md, "Faults stay where they happen")
#
# With several nodes, the start waits for the pools of this host only (the first node's: the
# others' sockets are on the other nodes); %h is this host's short name, as PoolMain's.

_jvmreuse_log() { jvmreuse_log jvmreuse-pool "$@"; }

# lib/core, where exec-jvm is (an absolute path without the ../ of the sourcing script's way here).
JVMREUSE_CORE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# shellcheck source=job-scripts/lib/core/processes.sh
source "$(dirname "${BASH_SOURCE[0]}")/processes.sh"

jvmreuse_load_build() {
    local target=$1/pool-manager/target native_lib_env=${MPI_NATIVE_LIB:-}
    jvmreuse_load_mpi_env "$1" || return 1
    if [[ ! -d $target/lib ]]; then
        _jvmreuse_log "ERROR: the pool is not built ($target/lib is missing): run job-scripts/setup.sh"
        return 1
    fi
    POOL_JAR=$(find "$target" -maxdepth 1 -name 'pool-manager-*.jar' ! -name '*-boot.jar' ! -name '*-launcher.jar' ! -name '*-tests.jar' ! -name '*-sources.jar' | head -n 1)
    BOOT_JAR=$(find "$target" -maxdepth 1 -name 'pool-manager-*-boot.jar' | head -n 1)
    LAUNCHER_JAR=$(find "$target" -maxdepth 1 -name 'pool-manager-*-launcher.jar' | head -n 1)
    ASM_JAR=$(find "$target/lib" -maxdepth 1 -name 'asm-*.jar' | head -n 1)
    NATIVE_DIR=$target/native
    JVMREUSE_CLIENT=$NATIVE_DIR/jvmreuse
    local f
    for f in "$POOL_JAR" "$BOOT_JAR" "$LAUNCHER_JAR" "$ASM_JAR" "$NATIVE_DIR/libjvmreuse.so" "$JVMREUSE_CLIENT"; do
        if [[ -z $f || ! -e $f ]]; then
            _jvmreuse_log "ERROR: the pool is not built (missing ${f:-a jar in $target}): run job-scripts/setup.sh"
            return 1
        fi
    done
    # The environment's MPI_NATIVE_LIB wins over the env file's; the default is Maven's build.
    MPI_NATIVE_LIB=${native_lib_env:-${MPI_NATIVE_LIB:-$NATIVE_DIR/libjvmreuse_mpi.so}}
    export POOL_JAR BOOT_JAR LAUNCHER_JAR ASM_JAR NATIVE_DIR JVMREUSE_CLIENT MPI_JAVA_JAR MPI_JAVA_LIBDIR MPIRUN MPI_NATIVE_LIB
}

# The MPI env file of repository $1: JVMREUSE_MPI_ENV (a path, relative ones against the
# repository; e.g. build/mpich.env), else build/mpi.env, else (a tree set up before mpi.env
# existed) build/mpi-java.env. Prints it; fails, naming what to do, when there is none.
jvmreuse_mpi_env_file() {
    local repo=$1 f
    if [[ -n ${JVMREUSE_MPI_ENV:-} ]]; then
        f=$JVMREUSE_MPI_ENV
        [[ $f == /* ]] || f=$repo/$f
        if [[ ! -f $f ]]; then
            _jvmreuse_log "ERROR: JVMREUSE_MPI_ENV=$JVMREUSE_MPI_ENV: $f does not exist (setup.sh writes build/mpi.env, and build/mpich.env with --with-mpich)"
            return 1
        fi
    elif [[ -f $repo/build/mpi.env ]]; then
        f=$repo/build/mpi.env
    elif [[ -f $repo/build/mpi-java.env ]]; then
        f=$repo/build/mpi-java.env
    else
        _jvmreuse_log "ERROR: $repo/build/mpi.env is missing: run job-scripts/setup.sh first (it finds the MPI and writes it)"
        return 1
    fi
    printf '%s' "$f"
}

# Sources the MPI env file (jvmreuse_mpi_env_file): MPI_IMPL, MPI_LAUNCHER, MPIRUN, and where
# present MPI_NATIVE_LIB, MPI_JAVA_JAR, MPI_JAVA_LIBDIR. Variables the file does not set are
# cleared, so that one MPI's settings never leak into another's. Sets MPI_ENV_MPIRUN (the file's
# MPIRUN, for jvmreuse_launcher_kind).
jvmreuse_load_mpi_env() {
    local f
    f=$(jvmreuse_mpi_env_file "$1") || return 1
    MPI_IMPL='' MPI_LAUNCHER='' MPIRUN='' MPI_NATIVE_LIB='' MPI_JAVA_JAR='' MPI_JAVA_LIBDIR='' MPI_VERSION=''
    # shellcheck source=/dev/null
    if ! source "$f"; then
        _jvmreuse_log "ERROR: cannot read the MPI env file $f: run job-scripts/setup.sh again"
        return 1
    fi
    if [[ -z $MPIRUN ]]; then
        _jvmreuse_log "ERROR: the MPI env file $f names no MPIRUN: run job-scripts/setup.sh again"
        return 1
    fi
    MPI_IMPL=${MPI_IMPL:-openmpi}
    MPI_ENV_MPIRUN=$MPIRUN
    export MPI_IMPL MPI_LAUNCHER MPIRUN MPI_ENV_MPIRUN MPI_VERSION
}

# The MPI backend of the pool processes (JVMREUSE_MPI_BACKEND: native or java; by default the
# native one where it was built, else Open MPI's Java bindings), checked. Sets
# JVMREUSE_MPI_JVM_ARGS (the JVM options it needs) and JVMREUSE_MPI_CLASSPATH (what goes on the class path after the pool jar: mpi.jar, or nothing).
jvmreuse_mpi_backend() {
    local backend=${JVMREUSE_MPI_BACKEND:-}
    if [[ -z $backend ]]; then
        backend=java
        [[ -f $MPI_NATIVE_LIB || -z ${MPI_JAVA_JAR:-} ]] && backend=native
    fi
    case $backend in
        native)
            if [[ ! -f $MPI_NATIVE_LIB ]]; then
                _jvmreuse_log "ERROR: the native MPI backend ($MPI_NATIVE_LIB) is not built: run job-scripts/setup.sh with the site's mpicc on PATH (or JVMREUSE_MPI_BACKEND=java)"
                return 1
            fi
            JVMREUSE_MPI_JVM_ARGS=(-Djvmreuse.mpi=native "-Djvmreuse.mpi.native=$MPI_NATIVE_LIB")
            JVMREUSE_MPI_CLASSPATH=
            ;;
        java)
            if [[ -z ${MPI_JAVA_JAR:-} || ! -f $MPI_JAVA_JAR ]]; then
                _jvmreuse_log "ERROR: JVMREUSE_MPI_BACKEND=java needs Open MPI's Java bindings (mpi.jar), which setup did not find (or JVMREUSE_MPI_BACKEND=native)"
                return 1
            fi
            JVMREUSE_MPI_JVM_ARGS=(-Djvmreuse.mpi=java "-Djava.library.path=$MPI_JAVA_LIBDIR")
            JVMREUSE_MPI_CLASSPATH=:$MPI_JAVA_JAR
            ;;
        *)
            _jvmreuse_log "ERROR: JVMREUSE_MPI_BACKEND must be native or java (got '$backend')"
            return 1
            ;;
    esac
}

# The benchmarks jar of repository $1 (MpiBandwidth, FetchBench: the programs job-scripts/bench/
# runs beside the pool's and the MPI shuffle's jars, kept out of theirs): sets BENCH_JAR; fails,
# naming what to do, when it is not built.
jvmreuse_bench_jar() {
    BENCH_JAR=$(find "$1/benchmarks/target" -maxdepth 1 -name 'benchmarks-*.jar' ! -name '*-sources.jar' \
        ! -name '*-tests.jar' 2>/dev/null | head -n 1)
    if [[ -z $BENCH_JAR ]]; then
        _jvmreuse_log "ERROR: the benchmark programs are not built ($1/benchmarks/target/benchmarks-*.jar is missing): run job-scripts/setup.sh"
        return 1
    fi
    export BENCH_JAR
}

# The command that starts $1 ranks of a Java program on this host under the pool's MPI and
# backend, for benchmarks: JVMREUSE_MPI_PROGRAM_CMD. $2: the program's class path, before the pool
# jar (whose public MPI API it uses: org.jvmreuse.pool.mpi), e.g. "$BENCH_JAR"; main class and
# arguments: the rest.
jvmreuse_mpi_program_command() {
    local np=$1 cp=$2 java
    shift 2
    java=$(jvmreuse_java) || { _jvmreuse_log "ERROR: no java found: set JAVA_HOME or JVMREUSE_JAVA"; return 1; }
    jvmreuse_mpi_backend || return 1
    local kind
    kind=$(jvmreuse_launcher_kind "$MPIRUN") || return 1
    JVMREUSE_MPI_PROGRAM_CMD=("$MPIRUN")
    if [[ $kind == hydra ]]; then
        # Hydra: no rank limit, stdin goes to rank 0 only (the caller redirects it).
        JVMREUSE_MPI_PROGRAM_CMD+=(-n "$np")
    else
        if [[ $EUID -eq 0 ]]; then
            JVMREUSE_MPI_PROGRAM_CMD+=(--allow-run-as-root)
        fi
        JVMREUSE_MPI_PROGRAM_CMD+=(--oversubscribe --stdin none -np "$np")
    fi
    JVMREUSE_MPI_PROGRAM_CMD+=("$JVMREUSE_CORE_DIR/exec-jvm" "$java"
        "${JVMREUSE_MPI_JVM_ARGS[@]}" -cp "$cp:$POOL_JAR$JVMREUSE_MPI_CLASSPATH" "$@")
}

# The kind of MPI launcher $1 is: openmpi (Open MPI's mpirun/mpiexec, ORTE) or hydra (MPICH's
# mpiexec / mpiexec.hydra, also Intel MPI's). MPI_LAUNCHER of the env file when $1 is its MPIRUN,
# else what `$1 --version` says.
jvmreuse_launcher_kind() {
    local launcher=$1 version
    if [[ -n ${MPI_LAUNCHER:-} && $launcher == "${MPI_ENV_MPIRUN:-}" ]]; then
        printf '%s' "$MPI_LAUNCHER"
        return 0
    fi
    if ! command -v "$launcher" >/dev/null 2>&1; then
        if [[ ${JVMREUSE_POOL_LAUNCHER:-mpirun} != mpirun ]]; then
            # An HPC job that launches the pools with srun or mpiexec (no mpirun needed): only
            # the program is used (jvmreuse_pool_program), with Open MPI's defaults.
            printf 'openmpi'
            return 0
        fi
        _jvmreuse_log "ERROR: the MPI launcher '$launcher' is not there: run job-scripts/setup.sh, or pick an MPI with JVMREUSE_MPI_ENV (docs/mpi.md)"
        return 1
    fi
    version=$("$launcher" --version 2>&1 </dev/null || true)
    case $version in
        *'Open MPI'* | *'OpenRTE'*) printf 'openmpi' ;;
        *HYDRA* | *Hydra* | *'Intel(R) MPI'*) printf 'hydra' ;;
        *)
            # A vendor MPI (e.g. an Open MPI derivative): the Open MPI options, as always before.
            _jvmreuse_log "WARNING: cannot tell what MPI launcher $launcher is (its --version says: ${version%%$'\n'*});" \
                "using Open MPI's mpirun options (set MPI_LAUNCHER=openmpi or hydra in the MPI env file to choose)"
            printf 'openmpi'
            ;;
    esac
}

jvmreuse_default_socket() {
    printf '/tmp/jvmreuse-%s/pool.sock' "$EUID"
}

jvmreuse_java() {
    if [[ -n ${JVMREUSE_JAVA:-} ]]; then
        printf '%s' "$JVMREUSE_JAVA"
    elif [[ -n ${JAVA_HOME:-} && -x $JAVA_HOME/bin/java ]]; then
        printf '%s' "$JAVA_HOME/bin/java"
    else
        command -v java
    fi
}

# The JVM options of every pool process. The launcher's agent defines the pool's code as the named
# module org.jvmreuse.pool (exporting nothing to runs; docs/design.md, "Module access"), with
# native access for it alone; the agent and the boot jar trap exits, and the agent opens the JDK
# internals a slot switches per run to the pool module only (PoolModuleAccess; --add-opens
# ...=ALL-UNNAMED here would give them to every run's code too); the native library
# does chdir/dup2 and stops leftover threads; the MPI backend's options come last.
# -Xms = -Xmx: the full GC a slot runs after a run that left files open (docs/design.md) would
# otherwise shrink the heap to what is live (~45 MB), and the next reducer's in-memory map
# outputs (G1 humongous objects) would then start a concurrent cycle in a heap too small for
# them (docs/benchmarks.md, "MPI shuffle vs HTTP shuffle"). Pages are resident only once used.
jvmreuse_pool_jvm_opts() {
    jvmreuse_mpi_backend || return 1
    JVMREUSE_POOL_JVM_OPTS=(
        "-Xmx${JVMREUSE_SLOT_HEAP:-1g}"
        "-Xms${JVMREUSE_SLOT_HEAP:-1g}"
        "-javaagent:$LAUNCHER_JAR=$POOL_JAR:$ASM_JAR$JVMREUSE_MPI_CLASSPATH"
        "-Xbootclasspath/a:$BOOT_JAR"
        "-Djvmreuse.native=$NATIVE_DIR/libjvmreuse.so"
        "${JVMREUSE_MPI_JVM_ARGS[@]}"
    )
    if [[ -n ${JVMREUSE_JVM_OPTS:-} ]]; then
        local extra
        read -r -a extra <<<"$JVMREUSE_JVM_OPTS"
        JVMREUSE_POOL_JVM_OPTS+=("${extra[@]}")
    fi
}

# Pools per node in this launch (JVMREUSE_POOLS, default 1), checked.
_jvmreuse_pools() {
    local pools=${JVMREUSE_POOLS:-1}
    if ! [[ $pools =~ ^[1-9][0-9]*$ ]]; then
        _jvmreuse_log "ERROR: JVMREUSE_POOLS ($pools) must be a whole number >= 1"
        return 1
    fi
    printf '%s' "$pools"
}

# The socket template given to PoolMain: JVMREUSE_SOCKET, else the default (PoolMain's too).
jvmreuse_socket_template() {
    local pools
    pools=$(_jvmreuse_pools) || return 1
    if [[ -n ${JVMREUSE_SOCKET:-} ]]; then
        printf '%s' "$JVMREUSE_SOCKET"
    elif ((pools > 1)); then
        printf '/tmp/jvmreuse-%s/pool-%%i.sock' "$EUID"
    else
        jvmreuse_default_socket
    fi
}

# This host's short name, as PoolMain puts it in for %h (MPI's processor name up to the first dot).
_jvmreuse_host() {
    local host
    host=$(uname -n)
    printf '%s' "${host%%.*}"
}

# Template $1 with %h, %i (pool index $2) and %n (pool number $2 + 1) filled in, as PoolMain does.
_jvmreuse_fill() {
    local s=$1 host
    host=$(_jvmreuse_host)
    s=${s//"%h"/$host}
    s=${s//"%i"/$2}
    s=${s//"%n"/$(($2 + 1))}
    printf '%s' "$s"
}

# The control sockets of this host's pools (pool index 0 .. JVMREUSE_POOLS-1), one a line.
jvmreuse_pool_sockets() {
    local template pools i
    pools=$(_jvmreuse_pools) || return 1
    template=$(jvmreuse_socket_template) || return 1
    for ((i = 0; i < pools; i++)); do
        printf '%s\n' "$(_jvmreuse_fill "$template" "$i")"
    done
}

# The file holding the launch's mpirun PID (see JVMREUSE_POOL_PID_FILE above).
jvmreuse_pool_pid_file() {
    local template pools dir
    if [[ -n ${JVMREUSE_POOL_PID_FILE:-} ]]; then
        printf '%s' "$JVMREUSE_POOL_PID_FILE"
        return 0
    fi
    pools=$(_jvmreuse_pools) || return 1
    template=$(jvmreuse_socket_template) || return 1
    if ((pools == 1)); then
        printf '%s/pool.pid' "$(dirname "$(_jvmreuse_fill "$template" 0)")"
        return 0
    fi
    dir=$(dirname "$template")
    while [[ $dir == *%[hin]* ]]; do
        dir=$(dirname "$dir")
    done
    printf '%s/pools.pid' "$dir"
}

_jvmreuse_pool_mpirun_log() {
    local pid_file
    pid_file=$(jvmreuse_pool_pid_file) || return 1
    printf '%s' "${JVMREUSE_POOL_MPIRUN_LOG:-$(dirname "$pid_file")/logs/mpirun.log}"
}

# The pool name used in messages for index $1 of a launch of $2 pools.
_jvmreuse_pool_name() {
    if (($2 == 1)); then
        printf 'the pool'
    else
        printf 'pool %s' "$(($1 + 1))"
    fi
}

# The program every rank of the launch runs, and the launch's shape (see the list at the top).
# The MPI kind is MPIRUN's (jvmreuse_launcher_kind): the ranks use that MPI's library, whatever
# starts them (under Hydra: exec-jvm --hydra, no MPI_Finalize).
jvmreuse_pool_program() {
    local java slots spares am_slots nodes pools per_pool per_node template
    java=$(jvmreuse_java) || { _jvmreuse_log "ERROR: no java found: set JAVA_HOME or JVMREUSE_JAVA"; return 1; }
    slots=${JVMREUSE_SLOTS:-${JVMREUSE_CONTAINER_LIMIT:-$(nproc)}}
    spares=${JVMREUSE_SPARES:-0}
    am_slots=${JVMREUSE_AM_SLOTS:-}
    nodes=${JVMREUSE_NODES:-1}
    pools=$(_jvmreuse_pools) || return 1
    if ! [[ $slots =~ ^[1-9][0-9]*$ && $nodes =~ ^[1-9][0-9]*$ ]]; then
        _jvmreuse_log "ERROR: slots ($slots) and nodes ($nodes) must be whole numbers >= 1"
        return 1
    fi
    if ! [[ $spares =~ ^[0-9]+$ ]]; then
        _jvmreuse_log "ERROR: spares (JVMREUSE_SPARES, --spares: $spares) must be a whole number >= 0"
        return 1
    fi
    if [[ -n $am_slots ]] && ! [[ $am_slots =~ ^[0-9]+$ && $((10#$am_slots)) -le $slots ]]; then
        _jvmreuse_log "ERROR: application master slots (JVMREUSE_AM_SLOTS, --am-slots: $am_slots) must be a whole number from 0 to the $slots slots"
        return 1
    fi
    template=$(jvmreuse_socket_template) || return 1
    if ((pools > 1)) && [[ $template != *%[in]* ]]; then
        _jvmreuse_log "ERROR: $pools pools per node would share the socket $template: put %i or %n in it"
        return 1
    fi
    per_pool=$((slots + 1 + 10#$spares))
    per_node=$((pools * per_pool))
    jvmreuse_pool_jvm_opts || return 1
    JVMREUSE_POOL_MPI_KIND=$(jvmreuse_launcher_kind "$MPIRUN") || return 1
    JVMREUSE_POOL_NODES=$nodes
    JVMREUSE_POOL_RANKS_PER_NODE=$per_node
    JVMREUSE_POOL_PROGRAM=("$JVMREUSE_CORE_DIR/exec-jvm" --manager-heap "${JVMREUSE_MANAGER_HEAP:-128m}" "$per_pool")
    if [[ $JVMREUSE_POOL_MPI_KIND == hydra ]]; then
        # exec-jvm --hydra: the JVM ignores the SIGUSR1 that Hydra sends when a rank dies;
        # jvmreuse.mpi.finalize=false: MPICH's MPI_Finalize waits for all ranks (a retiring slot
        # would hang in it, and with a dead rank every rank would at the stop).
        JVMREUSE_POOL_PROGRAM+=(--hydra)
        JVMREUSE_POOL_JVM_OPTS+=(-Djvmreuse.mpi.finalize=false)
    fi
    JVMREUSE_POOL_PROGRAM+=("$java" "${JVMREUSE_POOL_JVM_OPTS[@]}"
        -cp "$LAUNCHER_JAR" org.jvmreuse.launch.PoolLauncher org.jvmreuse.pool.PoolMain
        --socket "$template")
    if ((pools > 1)); then
        JVMREUSE_POOL_PROGRAM+=(--ranks-per-pool "$per_pool")
    fi
    if ((10#$spares > 0)); then
        JVMREUSE_POOL_PROGRAM+=(--spares "$((10#$spares))")
    fi
    if [[ -n $am_slots ]]; then
        JVMREUSE_POOL_PROGRAM+=(--am-slots "$((10#$am_slots))")
    fi
    if [[ -n ${JVMREUSE_POOL_LOG_DIR:-} ]]; then
        JVMREUSE_POOL_PROGRAM+=(--log-dir "$JVMREUSE_POOL_LOG_DIR")
    fi
    if [[ -n ${JVMREUSE_WARMUP_PARALLEL:-} ]]; then
        JVMREUSE_POOL_PROGRAM+=(--warmup-parallel "$JVMREUSE_WARMUP_PARALLEL")
    fi
    if [[ -n ${JVMREUSE_WARMUP_RUNS:-} ]]; then
        JVMREUSE_POOL_PROGRAM+=(--warmup-runs "$JVMREUSE_WARMUP_RUNS")
    fi
    if [[ -n ${JVMREUSE_RSS_MARGIN_MB:-} ]]; then
        JVMREUSE_POOL_PROGRAM+=(--rss-margin-mb "$JVMREUSE_RSS_MARGIN_MB")
    fi
    if [[ -n ${JVMREUSE_WARMUP_MAIN:-} ]]; then
        JVMREUSE_POOL_PROGRAM+=(--warmup-main "$JVMREUSE_WARMUP_MAIN" --warmup-cp "${JVMREUSE_WARMUP_CP:?JVMREUSE_WARMUP_CP must be set with JVMREUSE_WARMUP_MAIN}"
            --warmup-main-runs "${JVMREUSE_WARMUP_MAIN_RUNS:-10}")
    fi
    JVMREUSE_POOL_PROGRAM+=(${JVMREUSE_POOL_EXTRA_ARGS[@]+"${JVMREUSE_POOL_EXTRA_ARGS[@]}"})
}

# The mpirun part of the launch of jvmreuse_pool_program's shape: MPIRUN with the options of its
# kind that keep the launch alive when a slot retires or dies, or a pool stops.
jvmreuse_pool_mpirun() {
    local per_node=$JVMREUSE_POOL_RANKS_PER_NODE nodes=$JVMREUSE_POOL_NODES
    JVMREUSE_POOL_MPIRUN=("$MPIRUN")
    case $JVMREUSE_POOL_MPI_KIND in
        openmpi)
            if [[ $EUID -eq 0 ]]; then
                JVMREUSE_POOL_MPIRUN+=(--allow-run-as-root)
            fi
            # --enable-recovery and async finalize: a slot that retires (or dies), or a pool that
            # stops, leaves the job (and the other pools) running; --stdin none: mpirun must not
            # swallow the caller's stdin; --bind-to none: a slot sees the node's CPUs (its
            # availableProcessors, GC and thread-pool sizes) as a YARN container's new JVM does,
            # where Open MPI would bind a launch of up to one rank per core to single cores.
            JVMREUSE_POOL_MPIRUN+=(--oversubscribe --enable-recovery --stdin none --bind-to none
                --mca async_mpi_finalize 1 --mca orte_abort_on_non_zero_status 0
                --map-by "ppr:${per_node}:node" -np $((per_node * nodes)))
            ;;
        hydra)
            # -disable-auto-cleanup: a slot that dies (or a rank that exits with a non-zero
            # status) does not make Hydra kill every other rank; -ppn: ranks per node (the nodes
            # come from the batch system or HYDRA_HOST_FILE); stdin: see jvmreuse_pool_start.
            JVMREUSE_POOL_MPIRUN+=(-disable-auto-cleanup -ppn "$per_node" -n $((per_node * nodes)))
            ;;
    esac
}

# The launch's whole command line: the launcher (jvmreuse_pool_mpirun), then the program.
jvmreuse_pool_command() {
    jvmreuse_pool_program || return 1
    jvmreuse_pool_mpirun
    JVMREUSE_POOL_CMD=("${JVMREUSE_POOL_MPIRUN[@]}" "${JVMREUSE_POOL_PROGRAM[@]}")
}

# The status of the pool at socket $1 as one line of JSON (`jvmreuse status --json`; empty,
# status 1, if it does not answer). Read it with jvmreuse_status_field.
jvmreuse_pool_status_json() {
    "$JVMREUSE_CLIENT" --socket "$1" status --json 2>/dev/null
}

# Prints the top-level member $2 of the JSON status $1: a number as written, a string unescaped;
# status 1 if there is none. It reads the members in order and stops at the first array or
# object: the manager writes every top-level number and string first (docs/protocol.md,
# "status --json"), so bash needs no JSON tool (jq is not on every node), and no text inside a
# string (a socket path, a reason) can pass for a member, since each string is matched whole.
jvmreuse_status_field() {
    local rest=${1#\{} value
    local re='^"([a-z_]+)":(-?[0-9][0-9.eE+-]*|"(([^"\\]|\\.)*)"|true|false|null)[,}]'
    while [[ $rest =~ $re ]]; do
        if [[ ${BASH_REMATCH[1]} == "$2" ]]; then
            if [[ ${BASH_REMATCH[2]} == '"'* ]]; then
                # \" and \/ are JSON's own; printf %b decodes the rest (\\ \n \t \uXXXX ...).
                value=${BASH_REMATCH[3]//\\\"/\"}
                printf '%b\n' "${value//\\\//\/}"
            else
                printf '%s\n' "${BASH_REMATCH[2]}"
            fi
            return 0
        fi
        rest=${rest:${#BASH_REMATCH[0]}}
    done
    return 1
}

# "N (free F, busy B, starting S, retired R)" from the JSON status $1.
jvmreuse_status_slots() {
    local counts=() key
    for key in slots_total free busy starting retired; do
        counts+=("$(jvmreuse_status_field "$1" "$key")")
    done
    printf '%s (free %s, busy %s, starting %s, retired %s)\n' "${counts[@]}"
}

# Whether the pool at socket $1 answers and, unless JVMREUSE_POOL_READY=answer, has started all its slots.
_jvmreuse_pool_started() {
    local status
    status=$(jvmreuse_pool_status_json "$1") &&
        [[ ${JVMREUSE_POOL_READY:-warm} == answer || $(jvmreuse_status_field "$status" starting) == 0 ]]
}

# Makes $1 the pool's private directory (socket, FIFOs, logs): created with mode 700 in one step,
# never chmodded and never used through a symlink, or an existing real directory of ours that
# nobody else may enter. Another local user who made the path first gets a refusal, not our
# socket, our logs, or a chmod of whatever the link points to. PoolMain checks the same.
_jvmreuse_private_dir() {
    local dir=$1 owner mode
    mkdir -p -- "$(dirname "$dir")"
    mkdir -m 700 -- "$dir" 2>/dev/null || true
    if [[ -L $dir || ! -d $dir ]]; then
        _jvmreuse_log "ERROR: the pool's directory $dir is a symbolic link or not a directory; refusing to use it (choose another --socket)"
        return 1
    fi
    owner=$(stat -c %u -- "$dir")
    mode=$(stat -c %a -- "$dir")
    if [[ $owner != "$EUID" ]]; then
        _jvmreuse_log "ERROR: the pool's directory $dir belongs to uid $owner, not to us (uid $EUID); refusing to use it (choose another --socket)"
        return 1
    fi
    if ((8#$mode & 8#077)); then
        _jvmreuse_log "ERROR: the pool's directory $dir has mode $mode; it must be private to its owner (chmod 700 $dir)"
        return 1
    fi
}

# Starts the launch in the background and waits until every pool of this host has started all
# its slots; sets JVMREUSE_POOL_PID and writes it to the pid file. Returns 0 when every pool
# serves; 1 when none does (or mpirun exited: the launch is stopped); 2 when some pools serve
# and the others, named in the warning, do not (the launch keeps running for the pools that
# serve; the others were asked to stop, if they answered).
jvmreuse_pool_start() {
    local sockets=() socket pid_file log timeout waited=0 pools i dir status
    local ready=() failed=() reasons=() details=()
    pools=$(_jvmreuse_pools) || return 1
    mapfile -t sockets < <(jvmreuse_pool_sockets)
    ((${#sockets[@]} == pools)) || return 1
    pid_file=$(jvmreuse_pool_pid_file) || return 1
    log=$(_jvmreuse_pool_mpirun_log) || return 1
    timeout=${JVMREUSE_START_TIMEOUT:-120}
    if [[ ${JVMREUSE_POOL_READY:-warm} != warm && $JVMREUSE_POOL_READY != answer ]]; then
        _jvmreuse_log "ERROR: JVMREUSE_POOL_READY must be warm or answer (got '$JVMREUSE_POOL_READY')"
        return 1
    fi
    for socket in "${sockets[@]}"; do
        if jvmreuse_pool_status_json "$socket" >/dev/null; then
            _jvmreuse_log "ERROR: a pool is already serving $socket (mpirun pid $(cat "$pid_file" 2>/dev/null || echo '?'));" \
                "stop it (jvmreuse-pool stop --socket $socket) or choose another --socket"
            return 1
        fi
    done
    for ((i = 0; i < pools; i++)); do
        dir=$(dirname "${sockets[i]}")
        _jvmreuse_private_dir "$dir" || return 1
        if [[ -n ${JVMREUSE_POOL_LOG_DIR:-} ]]; then
            mkdir -p "$(_jvmreuse_fill "$JVMREUSE_POOL_LOG_DIR" "$i")"
        else
            mkdir -p "$dir/logs"
        fi
        ready[i]=0
    done
    mkdir -p "$(dirname "$pid_file")" "$(dirname "$log")"
    jvmreuse_pool_command || return 1
    _jvmreuse_log "starting: ${JVMREUSE_POOL_CMD[*]}"
    "${JVMREUSE_POOL_CMD[@]}" </dev/null >"$log" 2>&1 &
    JVMREUSE_POOL_PID=$!
    printf '%s\n' "$JVMREUSE_POOL_PID" >"$pid_file"
    while :; do
        local waiting=0
        for ((i = 0; i < pools; i++)); do
            if ((ready[i] == 0)); then
                if _jvmreuse_pool_started "${sockets[i]}"; then
                    ready[i]=1
                else
                    waiting=$((waiting + 1))
                fi
            fi
        done
        ((waiting > 0)) || break
        if ! _jvmreuse_alive "$JVMREUSE_POOL_PID"; then
            _jvmreuse_log "ERROR: mpirun exited during start-up; the end of $log:"
            tail -n 20 "$log" >&2
            if grep -q 'PML ucx cannot be selected' "$log" 2>/dev/null; then
                _jvmreuse_log "Open MPI's pml ucx (asked for by OMPI_MCA_pml or an MCA file) takes only InfiniBand/RoCE" \
                    "devices by default (pml_ucx_tls, pml_ucx_devices) and found none: over Ethernet use pml ob1 (leave" \
                    "OMPI_MCA_pml unset), or OMPI_MCA_pml_ucx_tls=any OMPI_MCA_pml_ucx_devices=any for UCX over TCP" \
                    "(docs/mpi.md, \"Which pml\")"
            fi
            rm -f "$pid_file"
            return 1
        fi
        if ((waited >= timeout * 10)); then
            break
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    for ((i = 0; i < pools; i++)); do
        if ((ready[i] == 0)); then
            failed+=("$i")
            reasons+=("$(_jvmreuse_pool_name "$i" "$pools") (socket ${sockets[i]}) was not ready after ${timeout}s")
            details+=("")
            continue
        fi
        status=$(jvmreuse_pool_status_json "${sockets[i]}" || true)
        if [[ $(jvmreuse_status_field "$status" starting) != 0 ]]; then
            continue # JVMREUSE_POOL_READY=answer: its slots still warm up
        elif [[ $(jvmreuse_status_field "$status" free) == 0 ]]; then
            failed+=("$i")
            reasons+=("$(_jvmreuse_pool_name "$i" "$pools") (socket ${sockets[i]}): no slot could start")
            details+=("$("$JVMREUSE_CLIENT" --socket "${sockets[i]}" status 2>&1 || true)")
        elif [[ $(jvmreuse_status_field "$status" retired) != 0 ]]; then
            _jvmreuse_log "WARNING: $(_jvmreuse_pool_name "$i" "$pools"): some slots could not start (see $(dirname "${sockets[i]}")/logs); its status:"
            "$JVMREUSE_CLIENT" --socket "${sockets[i]}" status >&2 || true
        fi
    done
    if ((${#failed[@]} == pools)); then
        for i in "${!reasons[@]}"; do
            _jvmreuse_log "ERROR: ${reasons[i]}"
            [[ -z ${details[i]} ]] || printf '%s\n' "${details[i]}" >&2
        done
        _jvmreuse_log "ERROR: no pool is ready (see $log and the pools' logs); stopping mpirun (pid $JVMREUSE_POOL_PID)"
        jvmreuse_pool_stop now
        return 1
    fi
    if ((${#failed[@]} > 0)); then
        for i in "${!reasons[@]}"; do
            _jvmreuse_log "WARNING: ${reasons[i]}; asking it to stop, the other pools go on"
            [[ -z ${details[i]} ]] || printf '%s\n' "${details[i]}" >&2
        done
        for i in "${failed[@]}"; do
            "$JVMREUSE_CLIENT" --socket "${sockets[i]}" stop --now >/dev/null 2>&1 || true
        done
        _jvmreuse_log "ready, but $((pools - ${#failed[@]})) of $pools pools only: mpirun pid $JVMREUSE_POOL_PID, logs: $log"
        return 2
    fi
    local what=ready
    [[ ${JVMREUSE_POOL_READY:-warm} == warm ]] || what="answering (slots still warming up serve as they are ready)"
    if ((pools == 1)); then
        _jvmreuse_log "$what: pid $JVMREUSE_POOL_PID, socket ${sockets[0]}, logs in $(dirname "${sockets[0]}")/logs"
    else
        _jvmreuse_log "$what: $pools pools, mpirun pid $JVMREUSE_POOL_PID (in $pid_file), sockets ${sockets[*]}"
    fi
}

# Waits up to $2 tenths of a second until the pool at socket $1 no longer answers.
_jvmreuse_pool_wait_gone() {
    local waited=0
    while jvmreuse_pool_status_json "$1" >/dev/null && ((waited < $2)); do
        sleep 0.1
        waited=$((waited + 1))
    done
    ! jvmreuse_pool_status_json "$1" >/dev/null
}

# Stops the launch whose mpirun PID is JVMREUSE_POOL_PID (or in the pid file): asks every pool
# of this host to stop, then SIGTERM, then SIGKILL to that PID only. A non-empty $1 ends running
# programs at once.
# A single pool (JVMREUSE_POOLS unset or 1) with no pid file that still answers belongs to a
# launch of several pools: only that pool is asked to stop; mpirun goes on for the others.
jvmreuse_pool_stop() {
    local sockets=() socket pid_file pid waited=0 pools
    pools=$(_jvmreuse_pools) || return 1
    mapfile -t sockets < <(jvmreuse_pool_sockets)
    pid_file=$(jvmreuse_pool_pid_file) || return 1
    pid=${JVMREUSE_POOL_PID:-$(cat "$pid_file" 2>/dev/null || true)}
    if [[ -z $pid ]] && ((pools == 1)) && jvmreuse_pool_status_json "${sockets[0]}" >/dev/null; then
        _jvmreuse_log "${sockets[0]} has no pid file beside it: a pool of a launch of several; stopping this pool only"
        "$JVMREUSE_CLIENT" --socket "${sockets[0]}" stop ${1:+--now} >/dev/null 2>&1 || true
        if ! _jvmreuse_pool_wait_gone "${sockets[0]}" 150; then
            _jvmreuse_log "ERROR: the pool at ${sockets[0]} still answers 15s after it was asked to stop"
            return 1
        fi
        return 0
    fi
    if [[ -z $pid ]] || ! _jvmreuse_alive "$pid"; then
        return 0
    fi
    for socket in "${sockets[@]}"; do
        "$JVMREUSE_CLIENT" --socket "$socket" stop ${1:+--now} >/dev/null 2>&1 || true
    done
    while _jvmreuse_alive "$pid" && ((waited < 150)); do
        sleep 0.1
        waited=$((waited + 1))
    done
    if _jvmreuse_alive "$pid"; then
        _jvmreuse_log "pools did not stop within 15s; sending SIGTERM to mpirun (pid $pid)"
        kill -TERM "$pid" 2>/dev/null || true
        sleep 2
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
    rm -f "$pid_file"
}
