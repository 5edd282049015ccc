#!/bin/bash
# Call 45: inline-scan reorders reading the totals the previous reorder added, and at most half the tiles (tot); the same with inline scans up to 2048 tiles (tot2k); beside main.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; $R .gpu/b/tot/pipeline-stats > $OUT/ps/tot.txt 2>&1; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step tot main=.gpu/b/main/sort-test tot=.gpu/b/tot/sort-test tot2k=.gpu/b/tot2k/sort-test -- --reps 30 --keys u32,u64 --values none,u32 --counts 2^16,2^18,2^19,2^20,1572864,2^21,3145728,2^22 --verify-max 4194304
