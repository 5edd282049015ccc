#!/bin/bash
# Call 39: 64-bit keys' single-workgroup sort as 512 x 8 (s64, the working tree on 84af161) beside
# main (84af161: 256 x 16 for every key width); pipeline-stats of s64.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
mkdir -p $OUT/s; $R $B/s64/pipeline-stats > $OUT/s/s64.txt 2>&1; (cd $OUT && tar czf s.tgz s && rm -rf s)
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step x64 main=$B/main84/sort-test s64=$B/s64/sort-test -- --reps 30 --keys u64,f64 --values none,u32,u64 --counts 256,1024,3001,4096,2^16 --verify-max 65536
step x32 main=$B/main84/sort-test s64=$B/s64/sort-test -- --reps 30 --keys u32 --values none,u32 --counts 1024,4096,2^16 --verify-max 65536
