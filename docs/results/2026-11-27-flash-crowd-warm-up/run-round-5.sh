#!/bin/bash
# a longer warm-up at start (30 s), beside a cold start, on 5747eda
cd /work/wip
COMMON="--step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1"
for start in warm-up-requests cold; do
  bin/experiment --modes static,adaptive --knee 55 --multipliers 4 $COMMON --tls 1.3 --mix browsing \
    --server-warmup-seconds 30 --flash-crowd --flash-crowd-start $start --no-cpu-change --out /tmp/fc/round5-$start-30s > /tmp/fc/round5-$start-30s.log 2>&1
done
