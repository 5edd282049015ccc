#!/bin/bash
# Call 22: gpu-check on HEAD (6ef9d01: aaab5dd's scan-step change and eec2c5c's test, never run on the H100);
# the one-range/ranges cut-over at 1024 and 2048 tiles against HEAD's 4096 (2^21-2^23).
cd "$(dirname "$0")/.."
export RUN="bash .gpu/run.sh"
O=$OUT/d; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $O/smi.txt 2>&1
B=.gpu/b
LOGS=$O/check timeout 280 tools/gpu-check.sh $B/head tests accept fallback subgroups example > $O/gpu-check.txt 2>&1
echo "gpu-check rc $?" >> $O/gpu-check.txt
C="--reps 20 --counts 2621440,2^22,6291456,2^23 --verify-max 8388608"
LOGS=$O/cut32 timeout 150 tools/gpu-ab.sh head=$B/head/sort-test c2048=$B/c2048/sort-test c1024=$B/c1024/sort-test -- --keys u32 --values none,u32 $C > $O/cut32.txt 2>&1
LOGS=$O/cut64 timeout 150 tools/gpu-ab.sh head=$B/head/sort-test c2048=$B/c2048/sort-test c1024=$B/c1024/sort-test -- --keys u64 --values none,u64 $C > $O/cut64.txt 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
