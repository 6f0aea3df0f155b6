# shellcheck shell=bash source-path=SCRIPTDIR
#
# core.sh -- the product's core, which every deployment sources: the one-machine cluster
# (lib/cluster/local-cluster.sh), HPC jobs (lib/batch/hpc-job.sh) and their node agents
# (lib/batch/hpc-node.sh). Sourced. Each file of lib/core owns one thing (docs/job-scripts.md,
# "Layout of job-scripts/lib"): defaults, what differs between Hadoop versions, pools (with
# processes and logging), the configuration renderer, ports, the daemons, what every deployment
# needs, and the cluster engine (the one start, readiness and teardown sequence, engine.sh).

# shellcheck source=job-scripts/lib/core/defaults.sh
source "$(dirname "${BASH_SOURCE[0]}")/defaults.sh"
# shellcheck source=job-scripts/lib/core/hadoop-version.sh
source "$(dirname "${BASH_SOURCE[0]}")/hadoop-version.sh"
# shellcheck source=job-scripts/lib/core/pool.sh
source "$(dirname "${BASH_SOURCE[0]}")/pool.sh"
# shellcheck source=job-scripts/lib/core/hadoop-conf.sh
source "$(dirname "${BASH_SOURCE[0]}")/hadoop-conf.sh"
# shellcheck source=job-scripts/lib/core/ports.sh
source "$(dirname "${BASH_SOURCE[0]}")/ports.sh"
# shellcheck source=job-scripts/lib/core/hadoop-daemons.sh
source "$(dirname "${BASH_SOURCE[0]}")/hadoop-daemons.sh"
# shellcheck source=job-scripts/lib/core/hadoop-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/hadoop-env.sh"
# shellcheck source=job-scripts/lib/core/engine.sh
source "$(dirname "${BASH_SOURCE[0]}")/engine.sh"
