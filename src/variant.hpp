// SPDX-License-Identifier: MIT
// A sorter variant: what an option of the sorter adds to the pipelines, the bindings, the scratch
// and the program, described for the rooms that build those without knowing the option. One file
// knows the option and fills this in (src/passes.cpp, beside shaders/passes.glsl); the others
// read the fields and call the hooks. A plain sorter's variant adds nothing.
#pragma once

#include <vksort/vksort.h>

#include <cstdint>

#include "plan.hpp"

namespace vksort {

struct ProgramInput;
struct Step;

struct Variant {
    // Appended to the SPIR-V name of kernels with a twin (shaders/vksort_kernels.h): "" runs the
    // plain kernels.
    const char* twinSuffix = "";
    // Appended to the name of a second pipeline of the kernels that have one (the twin specialized
    // with kSpecVariantPipeline = 1); null: no second pipelines.
    const char* secondSuffix = nullptr;
    // Bindings per descriptor set: the common ones first, then the variant's (src/pipelines.hpp,
    // setLayoutShape, adds a segmented sorter's).
    uint32_t bindingCount = kBindingPasses;
    // Descriptor sets a bindings object allocates (src/plan.hpp, BindingSet): kSetVariant only for
    // a variant with a second pipeline.
    uint32_t setCount = kSetVariant;
    // The sorters it names, for error messages ("" for a plain sorter).
    const char* description = "";
    // Lets the program's steps run the second pipelines and launch from the variant's arguments
    // (program.cpp calls it for every scan and reorder step); null: the steps stay as planned.
    void (*chooseStep)(const ProgramInput& input, bool inlineScan, Step* step) = nullptr;
};

// The variant of a sorter created with these flags.
Variant sorterVariant(VksortSorterCreateFlags flags);

// The descriptor type of a binding of the shared set layout.
VkDescriptorType bindingType(uint32_t binding);

// The variant's descriptors of one binding set: up to kBindingCount - kBindingPasses of them,
// `binding` and `info` each, ranges inside the scratch range. Returns how many.
struct VariantDescriptor {
    uint32_t binding = 0;
    VkDescriptorBufferInfo info{};
};
uint32_t variantDescriptors(const Variant& variant, BindingSet set, const ScratchLayout& layout,
                            const VksortBufferRange& scratch, VariantDescriptor* out);

} // namespace vksort
