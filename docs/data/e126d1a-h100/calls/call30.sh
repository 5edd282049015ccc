#!/bin/bash
# Call 30: the in-register ranking in three sweeps (ballots, running counts, shuffles) instead of key
# by key: in the single-workgroup sort (sw), and also in the scan reorder through a _shuffle twin (rsh).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
O=$OUT/d; mkdir -p $O
B=.gpu/b
for f in "u32 none" "u32 u32" "u64 none" "u64 u64"; do set -- $f
LOGS=$O/s-$1-$2 RUN="$R" timeout 90 tools/gpu-ab.sh cand=$B/cand/sort-test sw=$B/sw/sort-test rsh=$B/rsh/sort-test -- --reps 30 --keys $1 --values $2 --counts 2^10,2^12,2^16,2^20,2^24 --verify-max 1048576 > $O/s-$1-$2.txt 2>&1
done
$R $B/rsh/sort-test --count 1000 --key u32 > /dev/null 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
