#!/bin/bash
# Call 70: main (0452fdb) beside full (420562a) and fin (the landing: full + keys between passes in sort order, mapping placed per kernel).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in fin; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step u32 main=$B/main/sort-test full=$B/full/sort-test fin=$B/fin/sort-test -- --reps 30 --keys u32 --values none,u32 --counts 4096,2^16,2^20,2^24,2^28 --verify-max 16777216
step u64 main=$B/main/sort-test full=$B/full/sort-test fin=$B/fin/sort-test -- --reps 30 --keys u64 --values none,u32,u64 --counts 4096,2^16,2^20,2^24 --verify-max 16777216
step f32 main=$B/main/sort-test full=$B/full/sort-test fin=$B/fin/sort-test -- --reps 30 --keys f32 --values none,u32 --order desc --counts 2^20,2^24 --verify-max 16777216
