#!/bin/bash
# main (base) and the variant (lent regardless of idle) alternated, adaptive only
COMMON="--modes adaptive --knee 60 --multipliers 2,4,8 --step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01"
COMMON="$COMMON --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing --no-flash-crowd --no-cpu-change"
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then order="base var"; else order="var base"; fi
  for v in $order; do
    if [ $v = base ]; then dir=<worktree of 3cac7275>; else dir=<checkout with the change>; fi
    echo "round $r $v start $(date -u +%H:%M:%S)" >> /work/runs/ab.log
    (cd $dir && bin/experiment $COMMON --out /work/runs/ab-$v-r$r > /work/runs/ab-$v-r$r.log 2>&1)
    echo "round $r $v exit $? $(date -u +%H:%M:%S)" >> /work/runs/ab.log
  done
done
# rounds 4-6: the same loop with "for r in 4 5 6" (started by hand after round 3)
