#!/bin/bash
# interleaved flash-crowd rounds on d6611cb: cold, the gate's own warm-up, Gatling's warm-up
cd /work/wip
COMMON="--step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1"
for r in 6; do
  for start in warm-up-requests cold; do
    bin/experiment --modes static,adaptive --knee 55 --multipliers 4 $COMMON --tls 1.3 --mix browsing \
      --flash-crowd --flash-crowd-start $start --no-cpu-change --out /tmp/fc/round$r-$start > /tmp/fc/round$r-$start.log 2>&1
  done
done
