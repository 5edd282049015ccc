#!/bin/bash
# Call 69: where mapb's loss at 2^24 comes from: mapc (the mapping after the tables' loads), mapd (mapc with the mapping compiled out; unsigned ascending only).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in mapc mapd; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step u32 main=$B/main/sort-test full=$B/full/sort-test mapb=$B/mapb/sort-test mapc=$B/mapc/sort-test mapd=$B/mapd/sort-test -- --reps 30 --keys u32 --values none --counts 4096,2^16,2^20,2^24 --verify-max 16777216
step u64 main=$B/main/sort-test full=$B/full/sort-test mapb=$B/mapb/sort-test mapc=$B/mapc/sort-test mapd=$B/mapd/sort-test -- --reps 30 --keys u64,u32 --values none,u32 --counts 2^20,2^24 --verify-max 16777216
step f32 main=$B/main/sort-test full=$B/full/sort-test mapc=$B/mapc/sort-test -- --reps 30 --keys f32 --values none --order desc --counts 2^20,2^24 --verify-max 16777216
