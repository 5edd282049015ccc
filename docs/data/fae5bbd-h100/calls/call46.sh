#!/bin/bash
# Call 46: tot (the totals read only past one round of loads, loaded beside the counts) and tot15 (inline scans up to 1536 tiles) beside main.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; $R .gpu/b/tot/pipeline-stats > $OUT/ps/tot.txt 2>&1; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step small main=.gpu/b/main/sort-test tot=.gpu/b/tot/sort-test tot15=.gpu/b/tot15/sort-test -- --reps 30 --keys u32,u64 --values none,u32 --counts 2^16,2^18,2^19,2^20,2^21,2752512,3145728,3670016,2^22 --verify-max 4194304
step big --rounds 3 main=.gpu/b/main/sort-test tot=.gpu/b/tot/sort-test -- --reps 20 --keys u32,u64 --values none,u32 --counts 2^23,2^24 --verify-max 0
