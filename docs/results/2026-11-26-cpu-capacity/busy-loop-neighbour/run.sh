#!/bin/bash
# adaptive and adaptive-measured on CPUs 0-1 (CPU 1 also Gatling's) while a busy loop holds CPU 0 for the whole run:
# a neighbour that never gives CPU back, in a scheduling group of its own (setsid: its own autogroup), as a batch
# job or another service would be. Run from anywhere; the results land beside this script.
set -euo pipefail
cd "$(dirname "$0")/../../../.."
setsid taskset -c 0 sh -c 'while :; do :; done' &
LOOP=$!
trap 'kill "$LOOP"' EXIT
bin/experiment --modes adaptive,adaptive-measured --server-cpus 2 --knee 100 --multipliers 2,4 --step-seconds 60 \
  --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --tls 1.3 --mix browsing --no-cpu-change \
  --no-flash-crowd --out docs/results/2026-11-26-cpu-capacity/busy-loop-neighbour
