#!/bin/bash
# Call 61: the ranged inline scan in place of the full inline scan: rng3 (passes 1-7 ranged for 257-1024 tiles, pass 0 full inline), rng3a (ranged for every multi-tile sort up to 1024 tiles).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in main rng3 rng3a; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done
for b in rng3 rng3a; do for c in 20000 300001 1048576 2097152; do timeout 30 $R $B/$b/sort-test --count $c --repeat 5 >> $OUT/ps/check.txt 2>&1; timeout 30 $R $B/$b/sort-test --count $c --key u64 --value u64 --repeat 3 >> $OUT/ps/check.txt 2>&1; done; done
timeout 60 $R $B/rng3/sort-test --stress 3:30:2500000 >> $OUT/ps/check.txt 2>&1; echo "stress rc $?" >> $OUT/ps/check.txt
(cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step u32 main=$B/main/sort-test rng3=$B/rng3/sort-test rng3a=$B/rng3a/sort-test -- --reps 30 --keys u32 --values none --counts 2^13,2^14,2^16,2^18,2^19,2^20,1500000,2^21,2^22,2^24 --verify-max 4194304
step fmt main=$B/main/sort-test rng3=$B/rng3/sort-test rng3a=$B/rng3a/sort-test -- --reps 30 --keys u32,u64 --values none,u32 --counts 2^16,2^20,2^21 --verify-max 4194304
