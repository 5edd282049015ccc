#!/bin/bash
# Call 71: sorter creation (every format, empty shader cache, then warm) main against fin, alternating, three rounds; then gpu-check on fin (c50cb8a).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
O=$OUT/check; mkdir -p $O/startup
for r in 1 2 3; do for b in main fin; do
  c=$(mktemp -d)
  $R env __GL_SHADER_DISK_CACHE_PATH=$c .gpu/b/$b/sort-test --count 100000 --key f32 --value u32 --all-formats > $O/startup/$b-cold-$r.log 2>&1
  $R env __GL_SHADER_DISK_CACHE_PATH=$c .gpu/b/$b/sort-test --count 100000 --key f32 --value u32 --all-formats > $O/startup/$b-warm-$r.log 2>&1
done; done
grep -o 'sorter created in [0-9.]* ms' $O/startup/*.log > $O/startup/summary.txt
LOGS=$O RUN="$R" timeout 480 tools/gpu-check.sh .gpu/b/chk tests accept fallback subgroups example large stress > $O/gpu-check.txt 2>&1; echo "rc $?" >> $O/gpu-check.txt
cd $OUT && tar czf check.tgz check && rm -rf check
