#!/bin/bash
# Call 60: ranged inline scan, second version: rng2 (hoisted linear addressing, range atomics per digit and next digit), rng2q (ranges a quarter the square), rngX (rng2 without the range atomics: timing only, wrong output).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in main rng2 rng2q rngX; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done
timeout 60 $R $B/rng2/sort-test --count 16777216 --repeat 5 >> $OUT/ps/check.txt 2>&1
timeout 60 $R $B/rng2/sort-test --count 16777216 --key u64 --value u64 --repeat 3 >> $OUT/ps/check.txt 2>&1
timeout 60 $R $B/rng2q/sort-test --count 12345679 --key f32 --value index --order desc --bits 5:29 --repeat 3 >> $OUT/ps/check.txt 2>&1
timeout 60 $R $B/rng2/sort-test --stress 2:10:9000000 >> $OUT/ps/check.txt 2>&1; echo "stress rc $?" >> $OUT/ps/check.txt
(cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step u32 main=$B/main/sort-test rng2=$B/rng2/sort-test rng2q=$B/rng2q/sort-test rngX=$B/rngX/sort-test -- --reps 20 --keys u32 --values none --counts 2^16,2^20,2^21,2^22,2^23,2^24,2^26 --verify-max 0
step fmt main=$B/main/sort-test rng2=$B/rng2/sort-test -- --reps 20 --keys u32,u64 --values none,u32 --counts 2^22,2^24 --verify-max 16777216
