// SPDX-License-Identifier: MIT
#version 450
// Test producer of an indirect count: a compute shader writes the count the sort will read.
layout(local_size_x = 1) in;
layout(push_constant) uniform Push { uint count; } pc;
layout(set = 0, binding = 0, std430) writeonly buffer Count { uint count; } target;
void main() { target.count = pc.count; }
