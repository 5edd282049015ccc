#!/bin/bash
# Call 73: fin2 (fin without the whole-tile copies in the single-workgroup sort, loadValues and the last pass's scatter): cold sorter creation against main and fin, alternating, four rounds; speed at a few points.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
O=$OUT/startup; mkdir -p $O
for r in 1 2 3 4; do for b in main fin fin2; do
  for f in one all; do
    c=$(mktemp -d); a=; [ $f = all ] && a=--all-formats
    $R env __GL_SHADER_DISK_CACHE_PATH=$c $B/$b/sort-test --count 100000 --key f32 --value u32 $a > $O/$b-$f-cold-$r.log 2>&1
    rm -rf $c
  done
done; done
grep -o 'sorter created in [0-9.]* ms' $O/*.log > $O/summary.txt
$R $B/fin2/pipeline-stats > $O/ps-fin2.txt 2>&1
cd $OUT && tar czf startup.tgz startup && rm -rf startup && cd - > /dev/null
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step ab main=$B/main/sort-test fin=$B/fin/sort-test fin2=$B/fin2/sort-test -- --reps 30 --keys u32,u64 --values none,u32 --counts 4096,2^20,2^24 --verify-max 16777216
