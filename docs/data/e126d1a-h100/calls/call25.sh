#!/bin/bash
# Call 25: the single-workgroup sort as 512 x 8 and 1024 x 4 (with two exchange buffers) beside
# 256 x 16 with two buffers (dbl) and HEAD.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
O=$OUT/d; mkdir -p $O
B=.gpu/b
for f in "u32 none" "u32 u32" "u64 none" "u64 u64"; do set -- $f
LOGS=$O/s-$1-$2 RUN="$R" timeout 120 tools/gpu-ab.sh head=$B/head/sort-test dbl=$B/dbl/sort-test s512=$B/s512/sort-test s1024=$B/s1024/sort-test -- --reps 30 --keys $1 --values $2 --counts 2^10,2^12 --verify-max 4096 > $O/s-$1-$2.txt 2>&1
done
cd $OUT && tar czf d.tgz d && rm -rf d
