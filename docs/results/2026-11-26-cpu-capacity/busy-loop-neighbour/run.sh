#!/bin/bash
# Two adaptive modes on CPUs 0-1 (CPU 1 also Gatling's) while a busy loop holds CPU 0 for the whole run: a neighbour
# that never gives CPU back, in a scheduling group of its own (setsid: its own autogroup), as a batch job or another
# service would be. Run from anywhere.
#   run.sh MODES OUT
# 2026-11-26, first run:  run.sh adaptive,adaptive-measured docs/results/2026-11-26-cpu-capacity/busy-loop-neighbour
#   (adaptive planned for the allocation then)
# 2026-11-26, second run: run.sh adaptive,adaptive-allocation docs/results/2026-11-26-cpu-capacity/busy-loop-neighbour-lent
#   (adaptive = measured, the new default, with the headroom lent)
set -euo pipefail
modes=${1:?modes}
out=${2:?output directory}
cd "$(dirname "$0")/../../../.."
setsid taskset -c 0 sh -c 'while :; do :; done' &
loop=$!
trap 'kill "$loop"' EXIT
bin/experiment --modes "$modes" --server-cpus 2 --knee 100 --multipliers 2,4 --step-seconds 60 \
  --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --tls 1.3 --mix browsing --no-cpu-change \
  --no-flash-crowd --out "$out"
