#!/bin/bash
# Call 78 (H100): the docs sweep of b5ba7c6 (kernels 5d96c6e) with CUB in the same command; gpu-check's tests and fallback steps on it.
cd "$(dirname "$0")/.."
F=.gpu/b/m11 bash .gpu/call74.sh
R="bash .gpu/run.sh"
O=$OUT/check; mkdir -p $O
LOGS=$O RUN="$R" timeout 300 tools/gpu-check.sh .gpu/b/chk tests fallback > $O/gpu-check.txt 2>&1; echo "rc $?" >> $O/gpu-check.txt
cd $OUT && tar czf check.tgz check && rm -rf check
