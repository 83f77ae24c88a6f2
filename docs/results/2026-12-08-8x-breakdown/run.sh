#!/bin/bash
# One round of the 8x breakdown: static and adaptive at 2, 4 and 8x a knee of 55 new users/s (browsing, TLS 1.3,
# RSA-4096, one server CPU), with cpu0-sampler.py reading /proc once a second on CPU 1 beside Gatling.
# Usage: run.sh OUT_DIR
set -e
out=${1:?usage: run.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
mkdir -p "$out"
taskset -c 1 python3 "$here/cpu0-sampler.py" "$out/cpu0.jsonl" &
sampler=$!
trap 'kill $sampler 2> /dev/null' EXIT
bin/experiment --modes adaptive,static --knee 55 --multipliers 2,4,8 --step-seconds 40 --warmup-seconds 15 \
  --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing --no-flash-crowd \
  --no-cpu-change --out "$out" > "$out/experiment.log" 2>&1
kill $sampler   # before compressing what it writes
wait $sampler 2> /dev/null || true
gzip "$out/cpu0.jsonl"
