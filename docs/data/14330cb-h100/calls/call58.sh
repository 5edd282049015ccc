#!/bin/bash
# Call 58 (H100): tile shapes for 64-bit keys and pairs (main's sort-test with --workgroup-size/--keys-per-thread; wrappers in .gpu/t/).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
T=.gpu/t
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step wide main=$B/main/sort-test t256x6=$T/256x6 t256x10=$T/256x10 t256x12=$T/256x12 t128x16=$T/128x16 t512x4=$T/512x4 -- --reps 20 --keys u64 --values none,u64 --counts 2^20,2^22,2^24 --verify-max 16777216
step pairs main=$B/main/sort-test t256x6=$T/256x6 t256x10=$T/256x10 t128x16=$T/128x16 -- --reps 20 --keys u32 --values u32 --counts 2^20,2^22,2^24 --verify-max 16777216
