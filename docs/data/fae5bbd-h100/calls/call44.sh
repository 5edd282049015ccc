#!/bin/bash
# Call 44: the scan method's reorder looping over k tiles per workgroup (k = 2, 4, 8) beside main.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; $R .gpu/b/main/pipeline-stats > $OUT/ps/main.txt 2>&1; $R .gpu/b/k2/pipeline-stats > $OUT/ps/k2.txt 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/ps/smi.txt 2>&1
(cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step k32 main=.gpu/b/main/sort-test k2=.gpu/b/k2/sort-test k4=.gpu/b/k4/sort-test k8=.gpu/b/k8/sort-test -- --reps 20 --keys u32 --values none --counts 2^22,2^23,2^24,2^26,2^28 --verify-max 16777216
step kpv main=.gpu/b/main/sort-test k2=.gpu/b/k2/sort-test k4=.gpu/b/k4/sort-test k8=.gpu/b/k8/sort-test -- --reps 20 --keys u32,u64 --values none,u32 --counts 2^24,2^26 --verify-max 16777216
