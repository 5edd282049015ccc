#!/bin/bash
# Call 85 (H100): can the ranking's registers come down to 48 (a fifth workgroup per multiprocessor)?
# sb1: a subgroupBarrier after each key's ranking step; dep1/dep2: each key's (each second key's)
# ballots made to depend on the previous key's counts. pipeline-stats, then timed beside main.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
O=$OUT/ps; mkdir -p $O
for b in sb1 dep1 dep2; do $R $B/$b/pipeline-stats > $O/ps-$b.txt 2>&1; done
(cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step ab main=$B/m11/sort-test sb1=$B/sb1/sort-test dep1=$B/dep1/sort-test dep2=$B/dep2/sort-test -- --reps 20 --keys u32 --values none,u32 --counts 2^12,2^16,2^20,2^24,2^28 --verify-max 16777216
