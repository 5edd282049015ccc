#!/bin/bash
# Call 55: chained look-back publishing right after the walk; lbE keeps the inline scan up to 1024 tiles, c1/c2/c4 chained only (64/128/256-tile windows).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in lbE c1 c2 c4; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step u32 main=$B/main/sort-test lbE=$B/lbE/sort-test c1=$B/c1/sort-test c2=$B/c2/sort-test c4=$B/c4/sort-test -- --reps 20 --keys u32 --values none --counts 2^16,2^18,2^20,2^21,2^22,2^24 --verify-max 16777216
step fmt main=$B/main/sort-test lbE=$B/lbE/sort-test c2=$B/c2/sort-test c4=$B/c4/sort-test -- --reps 20 --keys u32,u64 --values none,u32 --counts 2^24 --verify-max 16777216
