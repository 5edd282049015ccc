#!/bin/bash
# Call 67: fewer instructions per key in the scan reorder: udig (digits without the order mapping: unsigned ascending only), full (no per-key bounds checks in full tiles), uf (both), ufi (both + one 8-byte shared load for the destination and next-count row).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in main udig full uf ufi; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step u32 main=$B/main/sort-test udig=$B/udig/sort-test full=$B/full/sort-test uf=$B/uf/sort-test ufi=$B/ufi/sort-test -- --reps 30 --keys u32 --values none,u32 --counts 2^16,2^20,2^22,2^24 --verify-max 16777216
step u64 main=$B/main/sort-test udig=$B/udig/sort-test full=$B/full/sort-test uf=$B/uf/sort-test ufi=$B/ufi/sort-test -- --reps 30 --keys u64 --values none --counts 2^16,2^20,2^24 --verify-max 16777216
