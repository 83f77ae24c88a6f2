#!/bin/bash
# interleaved cold/warm flash-crowd rounds, browsing TLS 1.3, knee 55 (the AMD guest's run of record)
cd /work/wip
COMMON="--step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1"
for r in 1 2; do
  for start in cold warm; do
    bin/experiment --modes static,adaptive --knee 55 --multipliers 4 $COMMON --tls 1.3 --mix browsing \
      --flash-crowd --flash-crowd-start $start --no-cpu-change --out /tmp/fc/round$r-$start > /tmp/fc/round$r-$start.log 2>&1
  done
done
