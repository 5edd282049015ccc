// SPDX-License-Identifier: MIT
#version 450
// The producer: one invocation per point. Points inside the view frustum (past the near plane)
// append their view-space depth as a sort key and their index as the value; visibleCount ends
// up as the number of keys, which the sort reads from the GPU (vksortCmdSortIndirect).
layout(local_size_x = 64) in;

layout(push_constant) uniform Camera {
    mat4 viewProj;   // world -> Vulkan clip space (visible: |x|, |y| <= w and 0 <= z <= w)
    vec4 depthRow;   // dot(depthRow, vec4(p, 1)) = distance in front of the camera
    uint pointCount;
} camera;

layout(std430, set = 0, binding = 0) readonly buffer Points { vec4 points[]; }; // xyz, w unused
layout(std430, set = 0, binding = 1) writeonly buffer Keys { float keys[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Values { uint values[]; };
layout(std430, set = 0, binding = 3) buffer Count { uint visibleCount; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= camera.pointCount) return;
    vec4 p = vec4(points[i].xyz, 1.0);
    vec4 clip = camera.viewProj * p;
    if (!(clip.w > 0.0 && abs(clip.x) <= clip.w && abs(clip.y) <= clip.w && clip.z >= 0.0 && clip.z <= clip.w))
        return;
    uint slot = atomicAdd(visibleCount, 1u);
    keys[slot] = dot(camera.depthRow, p);
    values[slot] = i;
}
