#!/bin/bash
# Call 56: the single-workgroup sort ranking by per-invocation counters (sc) against main.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in main sc; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step single main=$B/main/sort-test sc=$B/sc/sort-test -- --reps 30 --keys u32,u64 --values none,u32,u64 --counts 256,1024,3001,4096
mkdir -p $OUT/chk; for a in "--count 4096 --dist few:3 --value u32 --repeat 50" "--count 4096 --key u64 --value u64 --dist few:5 --repeat 50" "--count 1000 --key f64 --value index --order desc --repeat 50" "--count 4096 --bits 5:29 --value u32 --repeat 20"; do echo "== $a" >> $OUT/chk/sc.txt; $R $B/sc/sort-test $a >> $OUT/chk/sc.txt 2>&1; echo rc=$? >> $OUT/chk/sc.txt; done; (cd $OUT && tar czf chk.tgz chk && rm -rf chk)
