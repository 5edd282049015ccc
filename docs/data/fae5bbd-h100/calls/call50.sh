#!/bin/bash
# Call 50: tot2 (tot with the totals zeroed only where reorders add them: inline scans over more than 256 tiles) beside main.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; $R $B/tot2/pipeline-stats > $OUT/ps/tot2.txt 2>&1; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step tot2 main=$B/main/sort-test tot2=$B/tot2/sort-test -- --reps 30 --keys u32,u64 --values none,u32 --counts 2^12,2^14,2^16,2^18,2^19,2^20,2^21,2^22,2^24 --verify-max 4194304
