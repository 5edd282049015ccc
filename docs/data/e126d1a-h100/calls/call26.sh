#!/bin/bash
# Call 26: gpu-check on the candidate (two exchange buffers in the single-workgroup sort); it beside
# HEAD at the single-workgroup sizes; start-up and pipeline statistics.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
O=$OUT/d; mkdir -p $O
B=.gpu/b
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $O/smi.txt 2>&1
LOGS=$O/check RUN="$R" timeout 330 tools/gpu-check.sh $B/cand tests accept fallback subgroups example startup stats > $O/gpu-check.txt 2>&1
echo "gpu-check rc $?" >> $O/gpu-check.txt
for f in "u32 none" "u32 u32" "u64 none" "u64 u64"; do set -- $f
LOGS=$O/ab-$1-$2 RUN="$R" timeout 60 tools/gpu-ab.sh head=$B/head/sort-test cand=$B/cand/sort-test -- --reps 30 --keys $1 --values $2 --counts 2^10,2^12,2^16 --verify-max 65536 > $O/ab-$1-$2.txt 2>&1
done
cd $OUT && tar czf d.tgz d && rm -rf d
