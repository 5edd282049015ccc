#!/bin/bash
# Call 24: the single-workgroup sort with two exchange buffers (no barrier after an exchange's
# reads) beside HEAD; tiles 256 x 6/10/12 beside 256 x 8.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
O=$OUT/d; mkdir -p $O
B=.gpu/b
for f in "u32 none" "u32 u32" "u64 none" "u64 u64"; do set -- $f
LOGS=$O/dbl-$1-$2 RUN="$R" timeout 100 tools/gpu-ab.sh head=$B/head/sort-test dbl=$B/dbl/sort-test -- --reps 30 --keys $1 --values $2 --counts 2^10,2^11,2^12 --verify-max 4096 > $O/dbl-$1-$2.txt 2>&1
done
LOGS=$O/tiles RUN="$R" timeout 200 tools/gpu-ab.sh k8=$B/head/sort-test k6=$B/k6.sh k10=$B/k10.sh k12=$B/k12.sh -- --reps 20 --keys u32 --values none --counts 2^16,2^20,2^22,2^24 --verify-max 1048576 > $O/tiles.txt 2>&1; echo "tiles rc $?" >> $O/rc.txt
cd $OUT && tar czf d.tgz d && rm -rf d
