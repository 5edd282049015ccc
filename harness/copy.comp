// SPDX-License-Identifier: MIT
#version 450
// A plain coalesced copy, 16 bytes per load and store, four loads in flight per invocation,
// grid-stride so any size fits one dispatch. sort-test's bandwidth reference: what a compute
// shader can stream on the device, next to vkCmdCopyBuffer (which some drivers run on a slower
// copy engine). Also the benchmarks' GPU count (gpucount.hpp): one vector, written by a shader.
layout(local_size_x = 256) in;
layout(push_constant) uniform Push { uint vectors; } pc;
layout(set = 0, binding = 0, std430) restrict readonly buffer Source { uvec4 source[]; };
layout(set = 0, binding = 1, std430) restrict writeonly buffer Destination { uvec4 destination[]; };

const uint kPerInvocation = 4u;

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x * kPerInvocation;
    for (uint base = gl_WorkGroupID.x * gl_WorkGroupSize.x * kPerInvocation + gl_LocalInvocationIndex;
         base < pc.vectors; base += stride) {
        uvec4 v[kPerInvocation];
        for (uint i = 0u; i < kPerInvocation; ++i) {
            uint index = base + i * gl_WorkGroupSize.x;
            v[i] = index < pc.vectors ? source[index] : uvec4(0u);
        }
        for (uint i = 0u; i < kPerInvocation; ++i) {
            uint index = base + i * gl_WorkGroupSize.x;
            if (index < pc.vectors) destination[index] = v[i];
        }
    }
}
