#!/bin/bash
# Call 36: the reorder's shared memory made smaller (lean1: next-pass counts as 16-bit halves, 11012
# bytes; lean2: also no workgroup-scan scratch, 9984 bytes, timing only where the H100 path never
# needs it): registers, workgroups per multiprocessor (lean2p: probe) and time, beside main (205c808)
# and 943af76 (final2).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
mkdir -p $OUT/s
for b in main lean1 lean2; do $R $B/$b/pipeline-stats > $OUT/s/$b.txt 2>&1; done
(cd $OUT && tar czf s.tgz s && rm -rf s)
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step p --rounds 1 pr=$B/pr/sort-test lean2p=$B/lean2p/sort-test -- --reps 5 --keys u32,u64 --values none,u32 --counts 2^22 --verify-max 0
step l32 final2=$B/final2/sort-test main=$B/main/sort-test lean1=$B/lean1/sort-test lean2=$B/lean2/sort-test -- --reps 20 --keys u32 --values none,u32 --counts 2^12,2^16,2^20,2^22,2^24 --verify-max 1048576
step l64 final2=$B/final2/sort-test main=$B/main/sort-test lean1=$B/lean1/sort-test lean2=$B/lean2/sort-test -- --reps 20 --keys u64 --values none,u64 --counts 2^16,2^24 --verify-max 1048576
step l28 final2=$B/final2/sort-test main=$B/main/sort-test lean2=$B/lean2/sort-test -- --reps 10 --keys u32 --values none --counts 2^28 --verify-max 0
