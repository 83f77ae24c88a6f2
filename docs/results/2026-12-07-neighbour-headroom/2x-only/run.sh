#!/bin/bash
# the 2x step alone on a fresh JVM, before (base) and after (var) alternated
COMMON="--modes adaptive --knee 60 --multipliers 2 --step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01"
COMMON="$COMMON --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing --no-flash-crowd --no-cpu-change"
for r in 1 2 3 4; do
  if [ $((r % 2)) = 1 ]; then order="base var"; else order="var base"; fi
  for v in $order; do
    if [ $v = base ]; then dir=<worktree of 3cac7275>; else dir=<checkout with the change>; fi
    echo "round $r $v start $(date -u +%H:%M:%S)" >> <dir>/ab2x.log
    (cd $dir && bin/experiment $COMMON --out <dir>/ab2x-$v-r$r > <dir>/ab2x-$v-r$r.log 2>&1)
    echo "round $r $v exit $? $(date -u +%H:%M:%S)" >> <dir>/ab2x.log
  done
done
# rounds 5-10 (16:13-16:32 UTC, a fresh boot of the guest): the same loop with "for r in 5 6 7 8 9 10", each
# build from a worktree of its own (base: 3cac7275, var: 3fc8e173), traces gzipped into <variant>-round<N>/
# compare.py reads these too (python3 ../compare.py .); with one step, its '8x' lines are that step, here 2x
