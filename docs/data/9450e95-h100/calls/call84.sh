#!/bin/bash
# Call 84 (H100): rl (the reorder_scan loads its keys again after the ranking, so they are not live
# through it: fewer registers, perhaps 5 workgroups per multiprocessor) beside main (m11).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
O=$OUT/ps; mkdir -p $O
$R $B/rl/pipeline-stats > $O/ps-rl.txt 2>&1
(cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step ab main=$B/m11/sort-test rl=$B/rl/sort-test -- --reps 20 --keys u32,u64 --values none,u32 --counts 2^20,2^22,2^24,2^28 --verify-max 16777216
