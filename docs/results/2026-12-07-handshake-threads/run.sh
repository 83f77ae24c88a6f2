#!/bin/bash
# How the runs of this directory were made (docs/benchmarks.md section 4, "2026-12-07, morning"): each variant's
# build from its own worktree (bin/experiment builds the tree it runs from), one run after the other.
# usage: run.sh TREE OUT [NAME=VALUE gate attributes...]
tree=$1; out=$2; shift 2
args=()
for a in "$@"; do args+=(--gate-attribute "$a"); done
cd "$tree" && bin/experiment --modes adaptive --knee 25 --multipliers 2,4 --step-seconds 40 --warmup-seconds 15 \
  --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing --no-flash-crowd --no-cpu-change \
  "${args[@]}" --out "$out"
# threads/ (a45b1e60): a1; b1 fullHandshakeNice=1; c1 fullHandshakeNice=19; c2; b2; a2
# pool-queue/: before1 (3e091da8) fullHandshakeNice=1; after1 (a45b1e60) the same; after2; before2
# knee-35/ (a45b1e60, no attribute: the default budget as on 3e091da8): --knee 35 --multipliers 2,4,8
