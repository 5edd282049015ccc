#!/bin/bash
# Call 37: what a scan step costs, split: each scan step run twice, the first writing nothing
# (timing only; sd2: both phases, sd1: the ranges' scan only, no ticket and no last workgroup),
# beside main (205c808).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step d32 main=$B/main/sort-test sd1=$B/sd1/sort-test sd2=$B/sd2/sort-test -- --reps 20 --keys u32 --values none --counts 2^22,2^23,2^24,2^26 --verify-max 16777216
step d28 main=$B/main/sort-test sd1=$B/sd1/sort-test sd2=$B/sd2/sort-test -- --reps 10 --keys u32 --values none --counts 2^28 --verify-max 0
