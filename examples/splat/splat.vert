// SPDX-License-Identifier: MIT
#version 450
// One instance per splat, in draw order: instance k draws splat order[k] as a camera-facing quad
// (a 4-vertex triangle strip), two radii wide. Vulkan blends primitives in instance order, so
// the order buffer alone decides what lies over what.
layout(push_constant) uniform Camera {
    mat4 viewProj;
    vec4 depthRow;
    vec4 right;
    vec4 up;
    uint splatCount;
} camera;

struct Splat { vec4 centerRadius; vec4 color; };
layout(std430, set = 0, binding = 0) readonly buffer Splats { Splat splats[]; };
// The sorted values (or the host's order): farthest first.
layout(std430, set = 0, binding = 2) readonly buffer Order { uint order[]; };

layout(location = 0) out vec2 offset; // from the centre, in radii
layout(location = 1) out vec4 color;

void main() {
    Splat s = splats[order[gl_InstanceIndex]];
    offset = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1) * 2.0 - 1.0;
    vec3 p = s.centerRadius.xyz + (offset.x * camera.right.xyz + offset.y * camera.up.xyz) * s.centerRadius.w;
    gl_Position = camera.viewProj * vec4(p, 1.0);
    color = s.color;
}
