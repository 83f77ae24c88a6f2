#!/bin/sh
# The C2 (tier 4) compilations in each log, leaving out code made not entrant or zombie by the sweeper.
cd "$(dirname "$0")"
for v in static adaptive; do
  echo "== $v: $(grep -v 'made not entrant\|made zombie' jit-$v.log | wc -l) compilations," \
       "$(grep -v 'made not entrant\|made zombie' jit-$v.log | awk '$3=="4" || $4=="4" || $5=="4"' | wc -l) at tier 4"
  grep -v 'made not entrant\|made zombie' jit-$v.log | awk '$3=="4" || $4=="4" || $5=="4"' | sed 's/^[^:]* \([^ ]*::[^ ]*\).*/\1/'
done
