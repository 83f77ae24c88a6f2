#!/bin/bash
# on df020aa (CPU per request over 5 s spans), from a checkout of that commit (bin/experiment builds the working tree)
cd "${CHECKOUT:-.}"
COMMON="--step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1"
for n in 2 3; do
bin/experiment --modes adaptive --knee 55 --multipliers 1 $COMMON --tls 1.3 --mix browsing \
    --server-warmup-seconds 60 --flash-crowd --flash-crowd-start warm-up-requests --no-cpu-change --flash-crowd-seconds 12 --out ${OUT:-/tmp/warm-up-curve}/curve60-$n > ${OUT:-/tmp/warm-up-curve}/curve60-$n.log 2>&1
done
