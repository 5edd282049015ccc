// SPDX-License-Identifier: MIT
#include "gpucount.hpp"

#include "harness_spirv.hpp" // copy.comp

namespace vkctx {

// The writer copies one 16-byte vector from a device-local source that set() uploads.
GpuCount::GpuCount(Context& ctx) : ctx_(ctx) {
    source_ = ctx.createBuffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false);
    count_ = ctx.createBuffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, false);
    writer_ = std::make_unique<ComputeKernel>(ctx, harnessspirv::kSpirvBlobs[0].words, harnessspirv::kSpirvBlobs[0].wordCount,
                                              std::vector<VkBuffer>{source_.buffer, count_.buffer}, 4);
}

GpuCount::~GpuCount() {
    writer_.reset();
    ctx_.destroyBuffer(source_);
    ctx_.destroyBuffer(count_);
}

void GpuCount::set(uint32_t count) {
    if (count == value_) return;
    const uint32_t words[4] = {count, 0, 0, 0};
    ctx_.upload(source_, 0, words, sizeof(words));
    value_ = count;
}

void GpuCount::record(VkCommandBuffer cmd) const {
    const uint32_t vectors = 1;
    writer_->record(cmd, &vectors, 1);
}

} // namespace vkctx
