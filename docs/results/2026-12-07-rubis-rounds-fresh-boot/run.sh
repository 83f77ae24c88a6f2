#!/bin/bash
# three rounds of static and adaptive side by side, 17:03-17:25 UTC, from a worktree of 3fc8e173 (the code of main
# at 7ec6822d: only docs changed between them); figures: python3 ../2026-12-07-rubis-rounds/rounds.py round*/steps.csv
for r in 1 2 3; do
  bin/experiment --modes static,adaptive --knee 60 --multipliers 1,2,4,8 --step-seconds 40 \
    --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing \
    --no-flash-crowd --no-cpu-change --out <dir>/round$r
done
