# shellcheck shell=bash
#
# pool.sh -- start, wait for, and stop a JVM Reuse pool under mpirun. Sourced by the job
# scripts and by bin/jvmreuse-pool; the caller uses `set -euo pipefail`.
#
#   jvmreuse_load_build <repo>      sets POOL_JAR BOOT_JAR ASM_JAR NATIVE_DIR JVMREUSE_CLIENT and
#                                   MPI_JAVA_JAR MPI_JAVA_LIBDIR MPIRUN (from build/mpi-java.env)
#   jvmreuse_pool_command           fills the array JVMREUSE_POOL_CMD (the mpirun command line)
#   jvmreuse_pool_start             starts it in the background and waits until every slot is up
#   jvmreuse_pool_stop              asks the pool to stop; ends mpirun by PID if it does not
#
# Settings (environment; the CLI sets them from its options):
#   JVMREUSE_SLOTS       slots per node (default: JVMREUSE_CONTAINER_LIMIT, the most containers
#                        the node's NodeManager runs at once, if set; else the node's cores)
#   JVMREUSE_NODES       nodes to start pools on (default 1: this host)
#   JVMREUSE_SOCKET      control socket (default /tmp/jvmreuse-<uid>/pool.sock)
#   JVMREUSE_JAVA        java for the pool JVMs (default: $JAVA_HOME/bin/java, else java on PATH)
#   JVMREUSE_SLOT_HEAP   -Xmx of each pool JVM (default 1g)
#   JVMREUSE_JVM_OPTS    extra options for the pool JVMs (word-split)
#   JVMREUSE_START_TIMEOUT  seconds to wait for the pool (default 120)
#   JVMREUSE_WARMUP_MAIN, JVMREUSE_WARMUP_CP  a program each slot also runs before it serves, with
#                        the class path JVMREUSE_WARMUP_CP shared as runs share it (the Hadoop
#                        cluster runner warms the slots with Hadoop's task code this way)
#   JVMREUSE_WARMUP_MAIN_RUNS  how many runs of it (default 10)
#   JVMREUSE_WARMUP_RUNS runs of the pool's built-in warm-up program (default 100)

_jvmreuse_log() { printf '[jvmreuse-pool] %s\n' "$*" >&2; }

# Whether a process runs; unlike `kill -0`, an exited but unreaped (zombie) process does not count.
_jvmreuse_alive() {
    local state
    state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
    [[ -n $state && $state != Z ]]
}

jvmreuse_load_build() {
    local env_file=$1/build/mpi-java.env target=$1/pool-manager/target
    if [[ ! -f $env_file ]]; then
        _jvmreuse_log "ERROR: $env_file is missing: run job-scripts/setup.sh first"
        return 1
    fi
    # shellcheck source=/dev/null
    source "$env_file"
    if [[ ! -d $target/lib ]]; then
        _jvmreuse_log "ERROR: the pool is not built ($target/lib is missing): run job-scripts/setup.sh"
        return 1
    fi
    POOL_JAR=$(find "$target" -maxdepth 1 -name 'pool-manager-*.jar' ! -name '*-boot.jar' | head -n 1)
    BOOT_JAR=$(find "$target" -maxdepth 1 -name 'pool-manager-*-boot.jar' | head -n 1)
    ASM_JAR=$(find "$target/lib" -maxdepth 1 -name 'asm-*.jar' | head -n 1)
    NATIVE_DIR=$target/native
    JVMREUSE_CLIENT=$NATIVE_DIR/jvmreuse
    local f
    for f in "$POOL_JAR" "$BOOT_JAR" "$ASM_JAR" "$NATIVE_DIR/libjvmreuse.so" "$JVMREUSE_CLIENT"; do
        if [[ -z $f || ! -e $f ]]; then
            _jvmreuse_log "ERROR: the pool is not built (missing ${f:-a jar in $target}): run job-scripts/setup.sh"
            return 1
        fi
    done
    export POOL_JAR BOOT_JAR ASM_JAR NATIVE_DIR JVMREUSE_CLIENT MPI_JAVA_JAR MPI_JAVA_LIBDIR MPIRUN
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

# The JVM options of every pool process. The agent and the boot jar trap exits; the opened
# packages are the JDK internals a slot switches per run; the native library does chdir/dup2
# and stops leftover threads.
jvmreuse_pool_jvm_opts() {
    local java=$1 major
    major=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
    JVMREUSE_POOL_JVM_OPTS=(
        "-Xmx${JVMREUSE_SLOT_HEAP:-1g}"
        "-javaagent:$POOL_JAR"
        "-Xbootclasspath/a:$BOOT_JAR"
        --add-opens java.base/java.lang=ALL-UNNAMED
        --add-opens java.base/java.io=ALL-UNNAMED
        --add-opens java.base/sun.nio.fs=ALL-UNNAMED
        "-Djava.library.path=$MPI_JAVA_LIBDIR"
        "-Djvmreuse.native=$NATIVE_DIR/libjvmreuse.so"
    )
    if [[ ${major%%.*} -ge 22 ]]; then
        JVMREUSE_POOL_JVM_OPTS+=(--enable-native-access=ALL-UNNAMED)
    fi
    if [[ -n ${JVMREUSE_JVM_OPTS:-} ]]; then
        local extra
        read -r -a extra <<<"$JVMREUSE_JVM_OPTS"
        JVMREUSE_POOL_JVM_OPTS+=("${extra[@]}")
    fi
}

jvmreuse_pool_command() {
    local java slots nodes per_node
    java=$(jvmreuse_java) || { _jvmreuse_log "ERROR: no java found: set JAVA_HOME or JVMREUSE_JAVA"; return 1; }
    slots=${JVMREUSE_SLOTS:-${JVMREUSE_CONTAINER_LIMIT:-$(nproc)}}
    nodes=${JVMREUSE_NODES:-1}
    if ! [[ $slots =~ ^[1-9][0-9]*$ && $nodes =~ ^[1-9][0-9]*$ ]]; then
        _jvmreuse_log "ERROR: slots ($slots) and nodes ($nodes) must be whole numbers >= 1"
        return 1
    fi
    per_node=$((slots + 1))
    jvmreuse_pool_jvm_opts "$java"
    JVMREUSE_POOL_CMD=("$MPIRUN")
    if [[ $EUID -eq 0 ]]; then
        JVMREUSE_POOL_CMD+=(--allow-run-as-root)
    fi
    # --enable-recovery and async finalize: a slot that retires (or dies) leaves the job
    # running; --stdin none: mpirun must not swallow the caller's stdin.
    JVMREUSE_POOL_CMD+=(--oversubscribe --enable-recovery --stdin none
        --mca async_mpi_finalize 1 --mca orte_abort_on_non_zero_status 0
        --map-by "ppr:${per_node}:node" -np $((per_node * nodes))
        "$(dirname "${BASH_SOURCE[0]}")/exec-jvm" "$java" "${JVMREUSE_POOL_JVM_OPTS[@]}"
        -cp "$POOL_JAR:$ASM_JAR:$MPI_JAVA_JAR" org.jvmreuse.pool.PoolMain
        --socket "${JVMREUSE_SOCKET:-$(jvmreuse_default_socket)}")
    if [[ -n ${JVMREUSE_WARMUP_RUNS:-} ]]; then
        JVMREUSE_POOL_CMD+=(--warmup-runs "$JVMREUSE_WARMUP_RUNS")
    fi
    if [[ -n ${JVMREUSE_WARMUP_MAIN:-} ]]; then
        JVMREUSE_POOL_CMD+=(--warmup-main "$JVMREUSE_WARMUP_MAIN" --warmup-cp "${JVMREUSE_WARMUP_CP:?JVMREUSE_WARMUP_CP must be set with JVMREUSE_WARMUP_MAIN}"
            --warmup-main-runs "${JVMREUSE_WARMUP_MAIN_RUNS:-10}")
    fi
}

# Starts the pool in the background; sets JVMREUSE_POOL_PID and writes it next to the socket.
jvmreuse_pool_start() {
    local socket dir log timeout waited=0
    socket=${JVMREUSE_SOCKET:-$(jvmreuse_default_socket)}
    dir=$(dirname "$socket")
    log=$dir/logs/mpirun.log
    timeout=${JVMREUSE_START_TIMEOUT:-120}
    if "$JVMREUSE_CLIENT" --socket "$socket" status >/dev/null 2>&1; then
        _jvmreuse_log "ERROR: a pool is already serving $socket (mpirun pid $(cat "$dir/pool.pid" 2>/dev/null || echo '?'));" \
            "stop it (jvmreuse-pool stop --socket $socket) or choose another --socket"
        return 1
    fi
    mkdir -p "$dir/logs"
    chmod 700 "$dir"
    jvmreuse_pool_command
    _jvmreuse_log "starting: ${JVMREUSE_POOL_CMD[*]}"
    "${JVMREUSE_POOL_CMD[@]}" >"$log" 2>&1 &
    JVMREUSE_POOL_PID=$!
    printf '%s\n' "$JVMREUSE_POOL_PID" >"$dir/pool.pid"
    until "$JVMREUSE_CLIENT" --socket "$socket" status 2>/dev/null | grep -q 'starting 0,'; do
        if ! _jvmreuse_alive "$JVMREUSE_POOL_PID"; then
            _jvmreuse_log "ERROR: the pool exited during start-up; the end of $log:"
            tail -n 20 "$log" >&2
            return 1
        fi
        if ((waited >= timeout * 10)); then
            _jvmreuse_log "ERROR: the pool was not ready after ${timeout}s (see $log and $dir/logs)"
            jvmreuse_pool_stop now
            return 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    local status
    status=$("$JVMREUSE_CLIENT" --socket "$socket" status)
    if grep -q ' free 0,' <<<"$status"; then
        _jvmreuse_log "ERROR: no slot could start:"
        grep 'retired:' <<<"$status" >&2 || true
        jvmreuse_pool_stop now
        return 1
    fi
    if ! grep -q 'retired 0)' <<<"$status"; then
        _jvmreuse_log "WARNING: some slots could not start (see $dir/logs):"
        grep 'retired:' <<<"$status" >&2 || true
    fi
    _jvmreuse_log "ready: pid $JVMREUSE_POOL_PID, socket $socket, logs in $dir/logs"
}

# Stops the pool whose mpirun PID is JVMREUSE_POOL_PID (or in the pid file): politely first,
# then SIGTERM, then SIGKILL to that PID only. A non-empty $1 ends running programs at once.
jvmreuse_pool_stop() {
    local socket pid waited=0
    socket=${JVMREUSE_SOCKET:-$(jvmreuse_default_socket)}
    pid=${JVMREUSE_POOL_PID:-$(cat "$(dirname "$socket")/pool.pid" 2>/dev/null || true)}
    if [[ -z $pid ]] || ! _jvmreuse_alive "$pid"; then
        return 0
    fi
    "$JVMREUSE_CLIENT" --socket "$socket" stop ${1:+--now} >/dev/null 2>&1 || true
    while _jvmreuse_alive "$pid" && ((waited < 150)); do
        sleep 0.1
        waited=$((waited + 1))
    done
    if _jvmreuse_alive "$pid"; then
        _jvmreuse_log "pool did not stop within 15s; sending SIGTERM to mpirun (pid $pid)"
        kill -TERM "$pid" 2>/dev/null || true
        sleep 2
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
    rm -f "$(dirname "$socket")/pool.pid"
}
