#!/bin/bash
# Call 31: gpu-check's large and stress steps on e126d1a (the steps call 26 did not run).
cd "$(dirname "$0")/.."
O=$OUT/d; mkdir -p $O
LOGS=$O/check RUN="bash .gpu/run.sh" timeout 500 tools/gpu-check.sh .gpu/b/cand large stress > $O/gpu-check.txt 2>&1
echo "gpu-check rc $?" >> $O/gpu-check.txt
cd $OUT && tar czf d.tgz d && rm -rf d
