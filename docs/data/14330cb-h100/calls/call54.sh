#!/bin/bash
# Call 54: chained look-back over complete counts (lb1/lb2/lb4 = 64/128/256-tile windows) instead of scan steps above 1024 tiles.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in main lb1 lb2 lb4; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step u32 main=$B/main/sort-test lb1=$B/lb1/sort-test lb2=$B/lb2/sort-test lb4=$B/lb4/sort-test -- --reps 20 --keys u32 --values none --counts 2^16,2^20,2^21,2^22,2^24,2^26 --verify-max 67108864
step fmt main=$B/main/sort-test lb1=$B/lb1/sort-test lb2=$B/lb2/sort-test lb4=$B/lb4/sort-test -- --reps 20 --keys u32,u64 --values u32 --counts 2^22,2^24 --verify-max 16777216
step u64 main=$B/main/sort-test lb2=$B/lb2/sort-test -- --reps 20 --keys u64 --values none,u64 --counts 2^21,2^24 --verify-max 16777216
mkdir -p $OUT/stress; $R $B/lb2/sort-test --stress 10:40:6000000 > $OUT/stress/lb2.txt 2>&1; echo rc=$? >> $OUT/stress/lb2.txt; (cd $OUT && tar czf stress.tgz stress && rm -rf stress)
