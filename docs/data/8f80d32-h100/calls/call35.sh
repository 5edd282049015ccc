#!/bin/bash
# Call 35: registers and occupancy of other workgroup shapes with the same 2048-key tile (512 x 4,
# 1024 x 2) and 128 x 16, timed beside main (943af76); pipeline-stats of main, xb2 and prp2.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
mkdir -p $OUT/s
$R $B/final2/pipeline-stats > $OUT/s/final2.txt 2>&1
$R $B/final2/pipeline-stats --workgroup-size 512 --keys-per-thread 4 > $OUT/s/final2-512x4.txt 2>&1
$R $B/final2/pipeline-stats --workgroup-size 1024 --keys-per-thread 2 > $OUT/s/final2-1024x2.txt 2>&1
$R $B/final2/pipeline-stats --workgroup-size 128 --keys-per-thread 16 > $OUT/s/final2-128x16.txt 2>&1
$R $B/xb2/pipeline-stats > $OUT/s/xb2.txt 2>&1
$R $B/prp2/pipeline-stats > $OUT/s/prp2.txt 2>&1
(cd $OUT && tar czf s.tgz s && rm -rf s)
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step w head=$B/final2/sort-test w512=$B/w512x4-final2/sort-test w1024=$B/w1024x2-final2/sort-test w128=$B/w128x16-final2/sort-test -- --reps 20 --keys u32 --values none,u32 --counts 2^16,2^20,2^22,2^24 --verify-max 1048576
step w64 head=$B/final2/sort-test w512=$B/w512x4-final2/sort-test w1024=$B/w1024x2-final2/sort-test -- --reps 20 --keys u64 --values none --counts 2^24 --verify-max 0
step p --rounds 1 pr=$B/pr/sort-test p512=$B/w512x4-pr/sort-test p1024=$B/w1024x2-pr/sort-test p128=$B/w128x16-pr/sort-test -- --reps 5 --keys u32,u64 --values none --counts 2^22 --verify-max 0
