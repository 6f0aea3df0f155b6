# shellcheck shell=bash source-path=SCRIPTDIR
#
# core.sh -- the core every deployment sources: the one-machine cluster (local-cluster.sh), HPC
# jobs (hpc-job.sh) and their node agents (hpc-node.sh). Sourced. Each file owns one thing
# (docs/job-scripts.md, "Layout of job-scripts/lib"): defaults, pools (with processes and
# logging), the configuration renderer, ports, the daemons, and what every deployment needs.

# shellcheck source=defaults.sh
source "$(dirname "${BASH_SOURCE[0]}")/defaults.sh"
# shellcheck source=pool.sh
source "$(dirname "${BASH_SOURCE[0]}")/pool.sh"
# shellcheck source=hadoop-conf.sh
source "$(dirname "${BASH_SOURCE[0]}")/hadoop-conf.sh"
# shellcheck source=ports.sh
source "$(dirname "${BASH_SOURCE[0]}")/ports.sh"
# shellcheck source=hadoop-daemons.sh
source "$(dirname "${BASH_SOURCE[0]}")/hadoop-daemons.sh"
# shellcheck source=hadoop-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/hadoop-env.sh"
