#!/bin/bash
# Call 62: does same-line atomic contention explain the chained and ranged slowdowns? cs = lbE (chained look-back above 1024 tiles) with the next pass's totals spread over 64 lines (tile % 64); cs4 the same with 256-tile windows; cs1 the same code with 1 copy (as lbE); rngS = rng2 with 32-tile ranges at 8192 tiles.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in main cs cs4 cs1 rngS; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done
for b in cs cs4; do timeout 60 $R $B/$b/sort-test --count 16777216 --repeat 5 >> $OUT/ps/check.txt 2>&1; timeout 60 $R $B/$b/sort-test --count 67108864 --repeat 2 >> $OUT/ps/check.txt 2>&1; timeout 60 $R $B/$b/sort-test --count 16777216 --key u64 --value u64 --repeat 2 >> $OUT/ps/check.txt 2>&1; done
timeout 60 $R $B/cs/sort-test --stress 3:20:12000000 >> $OUT/ps/check.txt 2>&1; echo "stress rc $?" >> $OUT/ps/check.txt
(cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step u32 main=$B/main/sort-test cs=$B/cs/sort-test cs4=$B/cs4/sort-test cs1=$B/cs1/sort-test rngS=$B/rngS/sort-test -- --reps 20 --keys u32 --values none --counts 2^20,2^21,2^22,2^23,2^24,2^26 --verify-max 16777216
step fmt main=$B/main/sort-test cs=$B/cs/sort-test cs4=$B/cs4/sort-test -- --reps 20 --keys u32,u64 --values none,u32 --counts 2^22,2^24 --verify-max 16777216
