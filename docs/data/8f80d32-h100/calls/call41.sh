#!/bin/bash
# Call 41 (H100): 8f80d32 (final3) beside 19f9613 (m19) from 3073 to 4096 tiles and at 3072; the docs
# sweep of 8f80d32 with CUB in the same command; start-up, 943af76 (final2) and 8f80d32 alternating.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
F=.gpu/b/final3
N=h100
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step ab m19=.gpu/b/m19/sort-test final=$F/sort-test -- --reps 20 --keys u32,u64 --values none,u32 --counts 6291456,6293504,7000000,7782400,2^23 --verify-max 8388608
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
$R $F/pipeline-stats > $O/pipeline-stats.txt 2>&1
for i in 1 2; do for b in final2 final3; do
  c=$(mktemp -d)
  echo "$b round $i: $( $R env __GL_SHADER_DISK_CACHE_PATH=$c .gpu/b/$b/sort-test --count 100000 --key f32 --value u32 --all-formats 2>&1 | grep -o 'sorter created in [0-9.]* ms') cold; $( $R env __GL_SHADER_DISK_CACHE_PATH=$c .gpu/b/$b/sort-test --count 100000 --key f32 --value u32 --all-formats 2>&1 | grep -o 'sorter created in [0-9.]* ms') warm" >> $O/startup-ab.txt
done; done
cd $OUT && tar czf d.tgz d && rm -rf d
