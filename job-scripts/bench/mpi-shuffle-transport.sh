#!/usr/bin/env bash
# mpi-shuffle-transport.sh -- the MPI shuffle's transport against the raw MPI ceiling, side by side
# in one run: a pool (1 slot) whose manager runs the Shuffle Manager over a SIZE-byte map output,
# and a program in the slot that pulls that segment over MPI exactly as a reducer's fetcher does
# (chunks, CRC32C per chunk, the pool's single communication thread on both sides), without
# Hadoop's merge; then MpiBandwidth, the same Java bindings sending 1 MiB messages between 2 ranks.
#
# Settings: SIZE (bytes, default 536870912), REPEAT (pulls per setting, median and best printed,
# default 5).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=job-scripts/lib/pool.sh
source "$repo/job-scripts/lib/pool.sh"

size=${SIZE:-536870912}
repeat=${REPEAT:-5}
[[ $size =~ ^[1-9][0-9]*$ && $repeat =~ ^[1-9][0-9]*$ ]] || { echo "SIZE and REPEAT must be whole numbers" >&2; exit 2; }
work=$(mktemp -d /tmp/jvmreuse-bench-transport.XXXXXX)
export JVMREUSE_SOCKET=$work/pool.sock JVMREUSE_SLOTS=1 JVMREUSE_WARMUP_RUNS=20

cleanup() {
    jvmreuse_pool_stop now || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

jvmreuse_load_build "$repo"
shuffle_jar=$(find "$repo/mpi-shuffle/target" -maxdepth 1 -name 'mpi-shuffle-*.jar' | head -n 1)
hadoop_lib=$repo/hadoop-patch/target/hadoop/lib
if [[ -z $shuffle_jar || ! -d $hadoop_lib ]]; then
    echo "mpi-shuffle or hadoop-patch is not built: run job-scripts/setup.sh" >&2
    exit 1
fi
java=$(jvmreuse_java)

mkdir -p "$work/conf" "$work/local"
cat >"$work/conf/yarn-site.xml" <<XML
<configuration><property><name>yarn.nodemanager.local-dirs</name><value>$work/local</value></property></configuration>
XML
"$java" -cp "$shuffle_jar" org.jvmreuse.shuffle.reduce.FetchBench prepare "$work/local" "$size"

# shellcheck disable=SC2034 # read by jvmreuse_pool_command
JVMREUSE_POOL_EXTRA_ARGS=(--service org.jvmreuse.shuffle.server.ShuffleManager
    --service-cp "$shuffle_jar:$hadoop_lib/*" --service-opt "conf-dir=$work/conf")
jvmreuse_pool_start >/dev/null 2>&1 || { echo "the pool did not start (see $work/logs)" >&2; exit 1; }

printf '== MPI shuffle transport: a %s-byte segment pulled from the Shuffle Manager by a slot\n' "$size"
"$JVMREUSE_CLIENT" --socket "$JVMREUSE_SOCKET" run --shared-cp "$shuffle_jar" -cp "$shuffle_jar" \
    org.jvmreuse.shuffle.reduce.FetchBench fetch "$size" "$repeat" | tee "$work/fetch.txt"

printf '== raw MPI, the same Java bindings, 2 ranks (MpiBandwidth)\n'
cmd=("$MPIRUN")
if [[ $EUID -eq 0 ]]; then
    cmd+=(--allow-run-as-root)
fi
cmd+=(--oversubscribe --stdin none -np 2 "$repo/job-scripts/lib/exec-jvm" "$java"
    "-Djava.library.path=$MPI_JAVA_LIBDIR" -cp "$shuffle_jar:$MPI_JAVA_JAR"
    org.jvmreuse.shuffle.bench.MpiBandwidth --size 1048576 --repeat 3)
"${cmd[@]}" 2>&1 | grep '^bandwidth ' | tee "$work/raw.txt"

best_fetch=$(sed -n 's/^fetch mode=concurrent .* best=\([0-9.]*\)$/\1/p' "$work/fetch.txt" | sort -g | tail -n 1)
raw=$(sed -n 's/^bandwidth mode=nonblocking size=1048576 .*best=\([0-9.]*\).*/\1/p' "$work/raw.txt" | head -n 1)
raw_heap=$(sed -n 's/^bandwidth mode=heap size=1048576 .*best=\([0-9.]*\).*/\1/p' "$work/raw.txt" | head -n 1)
printf '\nconcurrent MPI shuffle, best: %s MB/s; raw MPI 1 MiB non-blocking (direct buffers): %s MB/s (%.2fx);\n' \
    "$best_fetch" "$raw" "$(awk -v a="$raw" -v b="$best_fetch" 'BEGIN { print a / b }')"
printf 'raw MPI 1 MiB from Java arrays (heap): %s MB/s (%.2fx)\n' "$raw_heap" \
    "$(awk -v a="$raw_heap" -v b="$best_fetch" 'BEGIN { print a / b }')"
