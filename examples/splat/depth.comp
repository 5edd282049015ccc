// SPDX-License-Identifier: MIT
#version 450
// The producer: each splat's view-space depth (distance in front of the camera) is its sort key.
// It writes no values: the sort is an argsort (VKSORT_VALUE_TYPE_INDEX), which fills them with
// each key's input index, that is, the splat's.
layout(local_size_x = 64) in;

layout(push_constant) uniform Camera {
    mat4 viewProj; // world -> Vulkan clip space
    vec4 depthRow; // dot(depthRow, vec4(p, 1)) = distance in front of the camera
    vec4 right;    // the camera's axes in world space, which the quads face
    vec4 up;
    uint splatCount;
} camera;

struct Splat { vec4 centerRadius; vec4 color; }; // color: rgb, peak opacity
layout(std430, set = 0, binding = 0) readonly buffer Splats { Splat splats[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Keys { float keys[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= camera.splatCount) return;
    keys[i] = dot(camera.depthRow, vec4(splats[i].centerRadius.xyz, 1.0));
}
