// SPDX-License-Identifier: MIT
#version 450
// Test consumer: reads the sorted keys and values and counts order, stability and range
// violations into a result buffer the host checks.
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint count; } pc;
layout(set = 0, binding = 0, std430) readonly buffer Keys { uint keys[]; };
layout(set = 0, binding = 1, std430) readonly buffer Values { uint values[]; };
layout(set = 0, binding = 2, std430) buffer Result { uint violations; uint checksum; } result;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    atomicAdd(result.checksum, values[i]);
    if (values[i] >= pc.count) atomicAdd(result.violations, 1u);
    if (i == 0u) return;
    bool ordered = keys[i - 1u] < keys[i] || (keys[i - 1u] == keys[i] && values[i - 1u] < values[i]);
    if (!ordered) atomicAdd(result.violations, 1u);
}
