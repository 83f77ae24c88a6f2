#!/usr/bin/env bash
# usage: quota-group.sh SHARES [PERIOD_US] -- Stall.java (4 busy threads, jobs of ~2 ms CPU, 15 s) in a fresh cgroup v1
# cpu group with a quota of 1 CPU (CFS period PERIOD_US, default 100000) and cpu.shares SHARES; prints the jobs'
# latencies and the group's throttling. Needs root and the v1 cpu hierarchy at /sys/fs/cgroup/cpu.
set -euo pipefail
shares=$1
period=${2:-100000}
stall="$(cd "$(dirname "$0")" && pwd)/Stall.java"
g=/sys/fs/cgroup/cpu/tlsadmit-weight-$shares-$period
mkdir -p "$g"
echo "$period" > "$g/cpu.cfs_period_us"
echo "$period" > "$g/cpu.cfs_quota_us"
echo "$shares" > "$g/cpu.shares"
bash -c 'echo $$ > "$1/cgroup.procs"; exec java -Xmx64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 "$2"' _ "$g" "$stall"
echo "shares $shares period $period: $(grep -E 'nr_periods|nr_throttled' "$g/cpu.stat" | tr '\n' ' ') load $(cut -d' ' -f1 /proc/loadavg)"
rmdir "$g"
