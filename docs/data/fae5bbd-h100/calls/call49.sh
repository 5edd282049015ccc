#!/bin/bash
# Call 49 (timing only): what each path of the scan method's reorder costs with the other path's code compiled out:
# noinl (no inline scan: valid above 1024 tiles) beside main; totI (tot with no scan-step path: valid up to 1024 tiles) beside main and tot.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; $R $B/noinl/pipeline-stats > $OUT/ps/noinl.txt 2>&1; $R $B/totI/pipeline-stats > $OUT/ps/totI.txt 2>&1; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step big main=$B/main/sort-test noinl=$B/noinl/sort-test -- --reps 20 --keys u32,u64 --values none,u32 --counts 2^22,2^24,2^26 --verify-max 4194304
step small main=$B/main/sort-test tot=$B/tot/sort-test totI=$B/totI/sort-test -- --reps 30 --keys u32,u64 --values none,u32 --counts 2^14,2^16,2^18,2^20,2^21 --verify-max 2097152
