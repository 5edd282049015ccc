// vksort GLSL library: the geometry of one workgroup's tile of keys, as the host planned it
// (specialization constants: no shader may choose its own, or its tiles would disagree with the
// host's grids and row strides). Included after common.glsl by every pass.

layout(constant_id = kSpecKeysPerThread) const uint KEYS_PER_THREAD = 16;
const uint TILE_SIZE = gl_WorkGroupSize.x * KEYS_PER_THREAD;
