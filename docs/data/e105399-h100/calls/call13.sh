#!/bin/bash
# Call 13: the inline scan up to 1024 tiles (host constant only) against the scan step and the
# look-back; tile 256x4 against 256x8 by the scan method around 2^17-2^19.
cd "$(dirname "$0")/.."
export RUN="bash .gpu/run.sh"
mkdir -p $OUT/d
LOGS=$OUT/d/inline tools/gpu-ab.sh auto=.gpu/b/final/sort-test scan=.gpu/s_final_k8.sh inl=.gpu/s_i1024_k8.sh -- \
  --keys u32 --values none,u32 --counts 589824,786432,917504,2^20,1310720,1572864,2^21 > $OUT/d/inline.txt 2>&1
LOGS=$OUT/d/inline64 tools/gpu-ab.sh scan=.gpu/s_final_k8.sh inl=.gpu/s_i1024_k8.sh -- \
  --keys u64 --values none,u64 --counts 786432,2^20,1572864,2^21 > $OUT/d/inline64.txt 2>&1
LOGS=$OUT/d/k4 tools/gpu-ab.sh k8=.gpu/s_i1024_k8.sh k4=.gpu/s_i1024_k4.sh -- \
  --keys u32 --values none,u32 --counts 2^17,196608,2^18,393216,2^19 > $OUT/d/k4.txt 2>&1
LOGS=$OUT/d/k4_64 tools/gpu-ab.sh k8=.gpu/s_i1024_k8.sh k4=.gpu/s_i1024_k4.sh -- \
  --keys u64 --values none,u64 --counts 2^17,196608,2^18,2^19 > $OUT/d/k4_64.txt 2>&1
cd $OUT && tar czf d.tgz d && rm -rf d
