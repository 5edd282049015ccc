#!/bin/bash
# Call 40: the scan step by ranges from 1025 or 2049 tiles instead of 4097 (o1024, o2048), now
# that the last workgroup scans the ranges' totals in one round, beside main (19f9613).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step o32 main=$B/m19/sort-test o1024=$B/o1024/sort-test o2048=$B/o2048/sort-test -- --reps 20 --keys u32 --values none,u32 --counts 2^21,3145728,2^22,6291456,2^23,2^24 --verify-max 8388608
step o64 main=$B/m19/sort-test o1024=$B/o1024/sort-test o2048=$B/o2048/sort-test -- --reps 20 --keys u64 --values none --counts 3145728,2^22,2^23 --verify-max 8388608
