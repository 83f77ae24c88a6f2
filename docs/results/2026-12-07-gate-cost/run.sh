#!/bin/bash
cd /work/main
bin/gate-cost-benchmark --tls 1.2 --variants stock,static,adaptive --schedule concurrent --rounds 12 \
    --warmup-seconds 300 --idle-seconds 60 --out <dir>
# and the same with --tls 1.3 (tls13/)
