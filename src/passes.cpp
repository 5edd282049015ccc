// SPDX-License-Identifier: MIT
// The host side of skipping constant digits (VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT), the
// sorter variant whose GLSL is shaders/passes.glsl: the GPU leaves out the passes whose digit
// every key shares. Its kernels are the "_skip" twins; they bind the passes that run (a uniform
// buffer) and the pass arguments (which passes run and the launches of the later passes). The
// step that decides which passes run is a second pipeline of its kernel, specialized with
// kSpecVariantPipeline, and the only one whose set binds the pass arguments for writing
// (kSetVariant); every other set binds a spare range there (or, in a segmented sort with a segment
// count on the GPU, the caller's count: kBindingSegmentCountIn). The pipelines, the bindings and
// the program read this through src/variant.hpp.
#include "variant.hpp"

#include "program.hpp"

namespace vksort {

namespace {

static_assert(kBindingPasses + 2 == kBindingCount && kBindingPassArgs + 1 == kBindingCount,
              "the skipping sorters' two bindings come last, after every sorter's");
static_assert(kSetVariant + 1 == kSetCount, "the deciding set comes last, allocated only when skipping");

// Which step decides which passes run: the first step that sees every tile's varying bits. That
// is the first scan step, or where the reorders scan inline the first reorder, whose every
// workgroup sums every tile's counts; an indirect sort, whose tile count only the GPU knows,
// makes both deciding (at run time the reorder decides only where it scans inline). The deciding
// step runs its kernel's second pipeline and binds the pass arguments (kSetVariant); its barrier
// reaches the later steps' uniform reads of them and, in a direct sort with scan steps, where
// the later passes launch from them (no workgroup for a pass left out), the indirect reads.
// Elsewhere the steps of a pass left out return at once: with an inline scan that costs less
// than an indirect launch, and an indirect sort may take the single-workgroup sort, where no
// step writes them.
void chooseStep(const ProgramInput& in, bool inlineScan, Step* step) {
    const bool decides = step->pass == 0 && (step->kernel == Kernel::Scan ||
                                             (step->kernel == Kernel::Reorder && (inlineScan || in.indirect)));
    const bool launchesFromPassArgs = !in.indirect && !inlineScan && in.passes.passCount > 1;
    if (decides) {
        step->second = true;
        step->set = kSetVariant;
        if (launchesFromPassArgs) step->barrier = Barrier::ComputeAndIndirect;
    } else if (launchesFromPassArgs && step->pass > 0) {
        step->indirect = true;
        step->variantArgs = true;
        step->argsWord = kPassLaunchOffset + step->pass * kPassArgsStride + (step->kernel == Kernel::Scan ? kPassScanArgs : 0);
    }
}

} // namespace

Variant sorterVariant(VksortSorterCreateFlags flags) {
    Variant v;
    if ((flags & VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT) == 0) return v;
    v.twinSuffix = "_skip";
    v.secondSuffix = "_deciding";
    v.bindingCount = kBindingCount;
    v.setCount = kSetCount;
    v.description = "a sorter that skips constant digits";
    v.chooseStep = chooseStep;
    return v;
}

VkDescriptorType bindingType(uint32_t binding) {
    return binding == kBindingPasses ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

uint32_t variantDescriptors(const Variant& variant, BindingSet set, const ScratchLayout& layout,
                            const VksortBufferRange& scratch, VariantDescriptor* out) {
    if (variant.chooseStep == nullptr) return 0;
    // The passes that run (the pass arguments' first words, as a uniform buffer), and the pass
    // arguments, which only the deciding set binds for its writes.
    out[0] = {kBindingPasses, {scratch.buffer, scratch.offset + layout.variantArgsOffset, kPassWords * 4u}};
    const uint64_t args = set == kSetVariant ? layout.variantArgsOffset : layout.spareArgsOffset;
    out[1] = {kBindingPassArgs, {scratch.buffer, scratch.offset + args, layout.variantArgsBytes}};
    return 2;
}

} // namespace vksort
