#!/bin/bash
# Call 72: cold sorter creation, main against fin, alternating, five rounds: f32 keys with u32 values only, then every format.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
O=$OUT/startup; mkdir -p $O
for r in 1 2 3 4 5; do for b in main fin; do
  for f in one all; do
    c=$(mktemp -d)
    a=; [ $f = all ] && a=--all-formats
    $R env __GL_SHADER_DISK_CACHE_PATH=$c .gpu/b/$b/sort-test --count 100000 --key f32 --value u32 $a > $O/$b-$f-cold-$r.log 2>&1
    rm -rf $c
  done
done; done
grep -o 'sorter created in [0-9.]* ms' $O/*.log > $O/summary.txt
cd $OUT && tar czf startup.tgz startup && rm -rf startup
