// SPDX-License-Identifier: MIT
#version 450
// Test producer: writes keys (a hash of the index, so unsorted) and values (the index).
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint count; } pc;
layout(set = 0, binding = 0, std430) writeonly buffer Keys { uint keys[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Values { uint values[]; };
uint hash(uint x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    keys[i] = hash(i) & 0xFFFFu; // 16 bits: many equal keys, so stability is visible
    values[i] = i;
}
