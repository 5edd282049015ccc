#!/bin/bash
# Call 48: the inline scan with 8 loads in flight per invocation instead of 4 (i8; i8k: 32-bit keys only) beside main and tot.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; $R $B/i8/pipeline-stats > $OUT/ps/i8.txt 2>&1; $R $B/i8k/pipeline-stats > $OUT/ps/i8k.txt 2>&1; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step i8 main=$B/main/sort-test i8=$B/i8/sort-test i8k=$B/i8k/sort-test -- --reps 30 --keys u32,u64 --values none,u32 --counts 2^16,2^18,2^19,2^20,2^21,2^22,2^24 --verify-max 2097152
