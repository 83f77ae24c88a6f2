#!/bin/bash
# flash crowd after the connector's warm-up of 15 s against 30 s, interleaved, adaptive, on 2.5x this guest's knee (about 40; --knee 25 keeps Gatling off its limit)
cd "${CHECKOUT:-.}"  # a checkout of 13216a6 (bin/experiment builds the working tree)
OUT=${OUT:-/tmp/fc2}
COMMON="--step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1"
for round in 1 2; do
  for seconds in 15 30; do
    bin/experiment --modes adaptive --knee 25 --multipliers 4 $COMMON --tls 1.3 --mix browsing \
      --server-warmup-seconds $seconds --flash-crowd --flash-crowd-start warm-up-requests --no-cpu-change \
      --out $OUT/round$round-$seconds > $OUT/round$round-$seconds.log 2>&1
  done
done
