// SPDX-License-Identifier: MIT
// A count read on the GPU, written the way a renderer's culling pass writes it: by a compute
// shader in the same command buffer, before the sort that reads it. A transfer write of the count
// (vkCmdUpdateBuffer, vkCmdFillBuffer or a copy) right before the sort is not what a renderer
// records, and on some devices it slows the whole sort that follows: on an NVIDIA H200 an indirect
// sort of 2^22 u32 keys with u32 values took about 10 us longer after one.
#pragma once

#include <cstdint>
#include <memory>

#include "vkcontext.hpp"

namespace vkctx {

class GpuCount {
public:
    explicit GpuCount(Context& ctx);
    ~GpuCount();
    GpuCount(const GpuCount&) = delete;
    GpuCount& operator=(const GpuCount&) = delete;

    // The count the next recorded writes give (uploaded at once, outside any command buffer).
    void set(uint32_t count);
    // Records the write: a compute dispatch that writes the count at offset 0 of buffer(). Order it
    // before its readers with a barrier from VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT /
    // VK_ACCESS_SHADER_WRITE_BIT.
    void record(VkCommandBuffer cmd) const;
    // 16 bytes, the count in the first 4; usage STORAGE_BUFFER and TRANSFER_SRC.
    VkBuffer buffer() const { return count_.buffer; }

private:
    Context& ctx_;
    Buffer source_, count_;
    std::unique_ptr<ComputeKernel> writer_;
    uint32_t value_ = ~0u;
};

} // namespace vkctx
