// vksort GLSL library: the geometry of one workgroup's tile of keys.
// Included after common.glsl by the passes that work on whole tiles (histogram, reorder, single-workgroup sort).

#ifdef VKSORT_KEYS_PER_THREAD
const uint KEYS_PER_THREAD = VKSORT_KEYS_PER_THREAD;
#else
layout(constant_id = kSpecKeysPerThread) const uint KEYS_PER_THREAD = 16;
#endif
const uint TILE_SIZE = gl_WorkGroupSize.x * KEYS_PER_THREAD;
