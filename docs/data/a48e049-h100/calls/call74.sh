#!/bin/bash
# Call 74 (H100): the docs sweep of main (a48e049, kernels 01516cf) with CUB in the same command; pipeline-stats.
# The build is F (default .gpu/b/m10, a48e049) and the file names' device N (default h100): calls 78 and 79 set
# F=.gpu/b/m11 (b5ba7c6), call 79 N=h200. (Call 74 ran it with F fixed to .gpu/b/m10, before F could be set.)
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
F=${F:-.gpu/b/m10}
N=${N:-h100}
O=$OUT/d; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $O/smi.txt 2>&1
S="--bench --no-validation --warmup 1 --reps 20 --verify-max 4194304"
$R $F/sort-test $S --cpu-max 1048576 --keys u32 --values none,u32 \
  --counts 2^10,2^12,2^14,2^16,2^18,2^19,2^20,2^21,2^22,2^24,2^26,2^28,1000003,10000019 --json $O/vksort-$N-32bit.json > $O/vksort-32.log 2>&1; echo "vksort 32 rc $?" >> $O/rc.txt
$R $F/sort-test $S --cpu-max 1048576 --keys u64 --values none,u64 --counts 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26 --json $O/vksort-$N-64bit.json > $O/vksort-64.log 2>&1; echo "vksort 64 rc $?" >> $O/rc.txt
C="--warmup 1 --reps 20 --verify-max 4194304"
.gpu/bin/cub-bench $C --keys u32 --values none,u32 --counts 2^10,2^12,2^14,2^16,2^18,2^19,2^20,2^21,2^22,2^24,2^26,2^28,1000003,10000019 --json $O/cub-$N-32bit.json > $O/cub-32.log 2>&1; echo "cub 32 rc $?" >> $O/rc.txt
.gpu/bin/cub-bench $C --keys u64 --values none,u64 --counts 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26 --json $O/cub-$N-64bit.json > $O/cub-64.log 2>&1; echo "cub 64 rc $?" >> $O/rc.txt
.gpu/bin/cub-bench $C --keys u32 --values none --counts 2^12,2^14,2^16,2^20,2^24 --graph --json $O/cub-graph-$N-u32.json > $O/cub-graph.log 2>&1; echo "cub graph rc $?" >> $O/rc.txt
$R $F/sort-test $S --keys u32 --values none --counts 2^24 --reps 30 --json $O/vksort-$N-again.json > $O/vksort-again.log 2>&1; echo "vksort again rc $?" >> $O/rc.txt
$R $F/pipeline-stats > $O/pipeline-stats.txt 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
