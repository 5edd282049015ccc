#!/bin/bash
# Call 65: subgroupPartitionNV for the ranking's peers (part, partr) and the rankKeys subgroup barriers (nosgb), beside main.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in main part partr nosgb; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step u32 main=$B/main/sort-test part=$B/part/sort-test partr=$B/partr/sort-test nosgb=$B/nosgb/sort-test -- --reps 30 --keys u32 --values none,u32 --counts 4096,2^16,2^20,2^22,2^24 --verify-max 16777216
step u64 main=$B/main/sort-test part=$B/part/sort-test partr=$B/partr/sort-test nosgb=$B/nosgb/sort-test -- --reps 30 --keys u64 --values none --counts 4096,2^16,2^24 --verify-max 16777216
