#!/usr/bin/env bash
# run-cost.sh BASE_CHECKOUT [ROUNDS] -- what a pooled run costs in this checkout against another
# (a commit before some checks, say), side by side in one run: a one-slot pool of each, started
# from its own checkout (each built with job-scripts/setup.sh or mvn package), takes the same
# programs in turn, round after round:
#   Hello        the smallest program;
#   ConfigHeavy  a Hadoop task's set-up (a JobConf, a parsed XML config, the local file system),
#                with Hadoop's jars and the hadoop-patch jar as the shared class path, so the
#                Hadoop reset hooks run as they do around a YARN task.
# Prints the client's wall time per run (median and p95) per checkout and program, and the
# slots' own account of the same runs (set-up and clean-up medians, from their logs).
#
# Example: git worktree add /tmp/base 6d5136e && (cd /tmp/base && mvn -q -o package -DskipTests)
#          job-scripts/bench/run-cost.sh /tmp/base 30
# --help: the comment above, before anything runs.
set -euo pipefail
[[ ${1:-} != -h && ${1:-} != --help && $# -ge 1 ]] || { sed -n '2,/^[^#]/{s/^#\( \|$\)//p;}' "${BASH_SOURCE[0]}"; exit 0; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
base=$(cd "$1" && pwd)
rounds=${2:-30}
work=$(mktemp -d /tmp/jvmreuse-run-cost.XXXXXX)
# Each checkout runs its own programs and its own Hadoop integration (their contracts with the
# pool change between commits).
declare -A workloads_jar shared_cp
for name in base this; do
    dir=$repo
    [[ $name == base ]] && dir=$base
    workloads_jar[$name]=$(find "$dir/workloads/target" -maxdepth 1 -name 'workloads-*.jar' | head -n 1)
    patch_jar=$(find "$dir/hadoop-patch/target" -maxdepth 1 -name 'hadoop-patch-*.jar' ! -name '*sources*' | head -n 1)
    [[ -n ${workloads_jar[$name]} && -n $patch_jar ]] || { echo "build $dir first (job-scripts/setup.sh)" >&2; exit 1; }
    shared_cp[$name]=$(find "$dir/workloads/target/lib" -name '*.jar' | sort | paste -sd: -):$patch_jar
done
config=$work/config.xml
{
    echo '<?xml version="1.0"?><configuration>'
    for i in $(seq 200); do echo "<property><name>bench.key.$i</name><value>value-$i</value></property>"; done
    echo '</configuration>'
} >"$config"

declare -A checkout=([base]=$base [this]=$repo)
stop_pools() {
    for name in "${!checkout[@]}"; do
        "${checkout[$name]}/job-scripts/bin/jvmreuse-pool" stop --socket "$work/$name/pool.sock" >/dev/null 2>&1 || true
    done
}
trap 'stop_pools; rm -rf "$work"' EXIT
for name in "${!checkout[@]}"; do
    "${checkout[$name]}/job-scripts/bin/jvmreuse-pool" start --slots 1 --socket "$work/$name/pool.sock" --heap 512m \
        >>"$work/start.log" 2>&1 || { cat "$work/start.log" >&2; exit 1; }
done

# One pooled run; prints its wall time in microseconds.
timed_run() {
    local name=$1 start end
    shift
    start=$(date +%s%N)
    if ! JVMREUSE_SOCKET=$work/$name/pool.sock "${checkout[$name]}/pool-manager/target/native/jvmreuse" run "$@" \
        >/dev/null 2>>"$work/$name.stderr"; then
        echo "a run failed in the $name checkout: $* (see $work/$name.stderr)" >&2
        exit 1
    fi
    end=$(date +%s%N)
    echo $(((end - start) / 1000))
}

for ((round = 0; round < rounds; round++)); do
    for name in base this; do
        micros=$(timed_run "$name" -cp "${workloads_jar[$name]}" org.jvmreuse.workloads.Hello bench)
        echo "$name Hello $micros"
        micros=$(timed_run "$name" --shared-cp "${shared_cp[$name]}" -cp "${workloads_jar[$name]}:${shared_cp[$name]}" \
            org.jvmreuse.workloads.ConfigHeavy "$config")
        echo "$name ConfigHeavy $micros"
    done
done >"$work/times"

python3 - "$work" <<'PY'
import collections, re, statistics, sys
work = sys.argv[1]
times = collections.defaultdict(list)
for line in open(f"{work}/times"):
    name, program, micros = line.split()
    times[(name, program)].append(int(micros) / 1000)
def p95(xs):
    xs = sorted(xs)
    return xs[int(0.95 * (len(xs) - 1))]
print("client wall time per run (ms): median / p95")
for program in ("Hello", "ConfigHeavy"):
    cells = [f"{name} {statistics.median(times[(name, program)]):.1f} / {p95(times[(name, program)]):.1f}"
             for name in ("base", "this")]
    print(f"  {program:12} " + "   ".join(cells))
print("in the slot (ms, medians): set-up, program, end, clean-up")
for name in ("base", "this"):
    for program in ("Hello", "ConfigHeavy"):
        rows = [list(map(float, re.findall(r"([0-9.]+) ms", l.split("set-up", 1)[1])))
                for l in open(f"{work}/{name}/logs/slot-rank1.log") if f"{program} exit 0; set-up" in l]
        if rows:
            cols = list(zip(*rows))[:4]
            print(f"  {name:5} {program:12} " + " ".join(f"{statistics.median(c):.2f}" for c in cols))
PY
