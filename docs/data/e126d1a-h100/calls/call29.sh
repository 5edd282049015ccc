#!/bin/bash
# Call 29: where the small sorts' time goes (timing-only variants whose writes stay in bounds and in
# place): the single-workgroup sort without ranking (snorank) and without passes (sempty); the
# multi-tile sort with empty tile-count and reorder dispatches (rempty).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
O=$OUT/d; mkdir -p $O
B=.gpu/b
LOGS=$O/s32 RUN="$R" timeout 100 tools/gpu-ab.sh cand=$B/cand/sort-test snorank=$B/snorank/sort-test sempty=$B/sempty/sort-test -- --reps 30 --keys u32 --values none,u32 --counts 2^10,2^12 --verify-max 0 > $O/s32.txt 2>&1
LOGS=$O/s64 RUN="$R" timeout 100 tools/gpu-ab.sh cand=$B/cand/sort-test snorank=$B/snorank/sort-test sempty=$B/sempty/sort-test -- --reps 30 --keys u64 --values none --counts 2^12 --verify-max 0 > $O/s64.txt 2>&1
LOGS=$O/r32 RUN="$R" timeout 100 tools/gpu-ab.sh cand=$B/cand/sort-test rempty=$B/rempty/sort-test -- --reps 30 --keys u32 --values none --counts 2^13,2^14,2^16,2^18,2^20 --verify-max 0 > $O/r32.txt 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
