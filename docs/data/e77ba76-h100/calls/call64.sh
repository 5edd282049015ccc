#!/bin/bash
# Call 64: what main's own next-count atomics cost: dbl adds every next-pass count in two atomics (n - n/2 and n/2) into the same word.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in main dbl; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step u32 main=$B/main/sort-test dbl=$B/dbl/sort-test -- --reps 30 --keys u32 --values none,u32 --counts 2^16,2^18,2^20,2^21,2^22,2^24 --verify-max 16777216
