#!/bin/bash
# bidding: the connector's warm-up (browsing pages, GET only) against a cold start, knee 75 (the afternoon's), on be54489
cd /work/wip
COMMON="--step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1"
for start in warm-up-requests cold; do
  bin/experiment --modes static,adaptive --knee 75 --multipliers 4 $COMMON --tls 1.3 --mix bidding \
    --flash-crowd --flash-crowd-start $start --no-cpu-change --out /tmp/fc/round7-bidding-$start > /tmp/fc/round7-bidding-$start.log 2>&1
done
