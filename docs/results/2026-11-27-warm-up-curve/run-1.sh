#!/bin/bash
# on fd0a877 (CPU per request by second), from a checkout of that commit (bin/experiment builds the working tree)
cd "${CHECKOUT:-.}"
COMMON="--step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1"
bin/experiment --modes adaptive --knee 55 --multipliers 4 $COMMON --tls 1.3 --mix browsing \
    --server-warmup-seconds 60 --flash-crowd --flash-crowd-start warm-up-requests --no-cpu-change --out ${OUT:-/tmp/warm-up-curve}/curve60 > ${OUT:-/tmp/warm-up-curve}/curve60.log 2>&1
