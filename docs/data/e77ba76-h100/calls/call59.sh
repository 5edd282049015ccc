#!/bin/bash
# Call 59: ranged inline scan (no scan step after the first pass above the inline limit): rng (r^2 >= tiles), rng4 (r^2 >= 4 tiles: fewer, longer ranges), rngq (r^2 >= tiles/4).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in main rng rng4 rngq; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done
for c in 4194304 16777216 67108864; do timeout 60 $R $B/rng/sort-test --count $c --repeat 5 >> $OUT/ps/check.txt 2>&1; done
timeout 60 $R $B/rng/sort-test --count 16777216 --key u64 --value u64 --repeat 3 >> $OUT/ps/check.txt 2>&1
timeout 60 $R $B/rng/sort-test --count 12345679 --key f32 --value index --order desc --bits 5:29 --repeat 3 >> $OUT/ps/check.txt 2>&1
timeout 90 $R $B/rng/sort-test --stress 4:40:20000000 >> $OUT/ps/check.txt 2>&1; echo "stress rc $?" >> $OUT/ps/check.txt
(cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step u32 main=$B/main/sort-test rng=$B/rng/sort-test rng4=$B/rng4/sort-test rngq=$B/rngq/sort-test -- --reps 20 --keys u32 --values none --counts 2^16,2^20,2^21,2^22,2^23,2^24,2^25,2^26,2^28 --verify-max 16777216
step fmt main=$B/main/sort-test rng=$B/rng/sort-test rng4=$B/rng4/sort-test -- --reps 20 --keys u32,u64 --values none,u32 --counts 2^22,2^24 --verify-max 16777216
