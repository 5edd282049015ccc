// SPDX-License-Identifier: MIT
#version 450
// What a launch really gets: subgroups per workgroup, the size the shader sees, and how many
// lanes the fullest and emptiest subgroup has (tests/test_subgroups.cpp).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0, std430) buffer Report {
    uint numSubgroups;
    uint subgroupSize;
    uint minLanes; // the host sets it to ~0 first
    uint maxLanes;
    uint maxSubgroupId;
};
layout(push_constant) uniform Push { uint unused; };

void main() {
    uint lanes = subgroupBallotBitCount(subgroupBallot(true));
    if (gl_LocalInvocationIndex == 0u) {
        numSubgroups = gl_NumSubgroups;
        subgroupSize = gl_SubgroupSize;
    }
    atomicMin(minLanes, lanes);
    atomicMax(maxLanes, lanes);
    atomicMax(maxSubgroupId, gl_SubgroupID);
}
