#!/bin/bash
# Call 63: where rng3's loss at 2^20 comes from: rngP makes the range rows (the atomics) but never reads them (full inline scan in every pass).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step u32 main=$B/main/sort-test rng3=$B/rng3/sort-test rngP=$B/rngP/sort-test -- --reps 30 --keys u32 --values none,u32 --counts 2^16,2^19,2^20,1500000,2^21 --verify-max 4194304
