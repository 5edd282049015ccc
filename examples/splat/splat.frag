// SPDX-License-Identifier: MIT
#version 450
// A soft gaussian footprint: sigma is a third of the radius, so the quad's edge is at 3 sigma
// (opacity below 1.2% of the peak) and the cut is invisible. Blended "over" (SRC_ALPHA,
// ONE_MINUS_SRC_ALPHA), which is why the order matters.
layout(location = 0) in vec2 offset;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 fragColor;

void main() {
    fragColor = vec4(color.rgb, color.a * exp(-4.5 * dot(offset, offset)));
}
