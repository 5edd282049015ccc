// SPDX-License-Identifier: MIT
#version 450
// The consumer: reads the sorted order (farthest first) and gathers the points into a
// draw-order buffer that a vertex shader would read back to front.
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Points { vec4 points[]; };
layout(std430, set = 0, binding = 1) readonly buffer Keys { float keys[]; };     // sorted depths
layout(std430, set = 0, binding = 2) readonly buffer Values { uint values[]; };  // point indices
layout(std430, set = 0, binding = 3) readonly buffer Count { uint visibleCount; };

struct DrawPoint {
    vec4 position;   // xyz, w = 1
    float depth;     // the sort key
    uint pointIndex; // to fetch per-point attributes
};
layout(std430, set = 0, binding = 4) writeonly buffer DrawOrder { DrawPoint drawOrder[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= visibleCount) return;
    uint index = values[i];
    drawOrder[i] = DrawPoint(vec4(points[index].xyz, 1.0), keys[i], index);
}
