#!/bin/bash
# Call 82 (H100): registers of the reorders by tile shape (pipeline-stats of m11 = b5ba7c6), and
# main's tile 256 x 8 beside 256 x 7, 6, 5 (the same build, --keys-per-thread): does a tile whose
# reorder fits 48 registers (5 workgroups per multiprocessor) win?
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
O=$OUT/ps; mkdir -p $O
for s in "256 4" "256 5" "256 6" "256 7" "256 8" "256 10" "128 8" "128 12" "512 4" "512 6"; do set -- $s
  $R $B/m11/pipeline-stats --workgroup-size $1 --keys-per-thread $2 > $O/ps-$1x$2.txt 2>&1; done
(cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step ab k8=$B/m11/sort-test k7=$B/kpt/k7.sh k6=$B/kpt/k6.sh k5=$B/kpt/k5.sh -- --reps 30 --keys u32 --values none,u32 --counts 2^16,2^20,2^22,2^24
