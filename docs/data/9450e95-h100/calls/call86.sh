#!/bin/bash
# Call 86 (H100): main's 256 x 8 beside 128 x 8 (the same build with --workgroup-size 128): its
# reorder has 53 registers, and 128-invocation workgroups at 56 fit 9 per multiprocessor (1152
# invocations against 4 x 256 = 1024).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step ab w256=$B/m11/sort-test w128=$B/kpt/w128.sh -- --reps 20 --keys u32 --values none,u32 --counts 2^16,2^20,2^22,2^24,2^28
