#!/bin/bash
# Call 52: the scan step's ticket with an acquiring memory barrier after it (fence) beside main.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step fence main=$B/main/sort-test fence=$B/fence/sort-test -- --reps 20 --keys u32,u64 --values none,u32 --counts 7000000,2^24,2^26,2^28 --verify-max 16777216
