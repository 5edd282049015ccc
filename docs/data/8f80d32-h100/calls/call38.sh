#!/bin/bash
# Call 38: the scan step's last workgroup scans the ranges' totals in one round (ph2), and with
# ranges of at least 256 or 128 tiles instead of 512 (ph2r256, ph2r128), beside main (205c808).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step q32 main=$B/main/sort-test ph2=$B/ph2/sort-test r256=$B/ph2r256/sort-test r128=$B/ph2r128/sort-test -- --reps 20 --keys u32 --values none,u32 --counts 2^23,2^24,2^25,2^26 --verify-max 16777216
step q64 main=$B/main/sort-test ph2=$B/ph2/sort-test r256=$B/ph2r256/sort-test r128=$B/ph2r128/sort-test -- --reps 20 --keys u64 --values none --counts 2^24 --verify-max 16777216
step q28 main=$B/main/sort-test ph2=$B/ph2/sort-test r256=$B/ph2r256/sort-test -- --reps 10 --keys u32 --values none --counts 2^28 --verify-max 0
