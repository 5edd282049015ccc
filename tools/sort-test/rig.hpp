// SPDX-License-Identifier: MIT
// The GPU side of sort-test: buffers sized for one (key type, value type, capacity), a pristine
// device-side copy of the input that is restored before every timed sort, and the timing loops.
#pragma once

#include <vksort/vksort.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "gpucount.hpp"
#include "hostdata.hpp"
#include "toolutil.hpp"
#include "vkcontext.hpp"

struct RunTimes {
    double total = 0;       // ms, from just before to just after the recorded sort
    double withQueries = 0; // ms, the same with vksort's per-dispatch timestamps (bench only)
    // ms from query 0 to 1 (the tile counts, or the whole sort where it is one dispatch; an
    // indirect sort's tile counts, one-dispatch sort and count copy together), and from query 1 on (every pass's scan and
    // reorder, summed)
    double kinds[2] = {};
    double recordUs = 0; // us of CPU time the vksortCmdSort (or Indirect) call took to record (bench only)
};

using toolutil::Stats;
using toolutil::statsOf;

class SortRig {
public:
    // `indirect`: sorts go through vksortCmdSortIndirect, with the count written into a GPU buffer
    // by a compute shader in the same command buffer, as a renderer's culling pass writes it.
    // `rangeOffset`: each range starts that many bytes into its buffer, rounded up to a multiple of
    // its reported alignment.
    SortRig(vkctx::Context& ctx, VksortSorter sorter, VksortKeyType keyType, VksortValueType valueType,
            uint32_t capacity, bool indirect = false, uint32_t rangeOffset = 0);
    ~SortRig();
    SortRig(const SortRig&) = delete;
    SortRig& operator=(const SortRig&) = delete;

    // Uploads `input` as the pristine copy every sort starts from.
    void load(const hostdata::Data& input);

    // Restores the input, sorts `count` elements once, downloads the result.
    RunTimes sortOnce(const VksortSortInfo& info, std::vector<uint8_t>* keys, std::vector<uint8_t>* values);
    // Keys per workgroup tile of the sorter (VksortSorterProperties::tileSize).
    uint32_t tileSize() const;

    // Back-to-back sorts of the loaded input: first at least `warmupSeconds` untimed (so the clocks
    // are up), then `repetitions` timed ones in one submission. Each starts from the restored input.
    std::vector<RunTimes> bench(const VksortSortInfo& info, double warmupSeconds, uint32_t repetitions);

    // The device's own copy bandwidth on `bytes` bytes (bytes read + written per second, median of
    // `repetitions` back-to-back copies): with vkCmdCopyBuffer, and with a plain compute-shader
    // copy (harness/copy.comp), which is what a sort's shaders can stream.
    double copyBandwidth(uint64_t bytes, uint32_t repetitions);
    double shaderCopyBandwidth(uint64_t bytes, uint32_t repetitions);

    // A sort info for these bindings.
    VksortSortInfo sortInfo(uint32_t count) const;

private:
    void recordIteration(VkCommandBuffer cmd, const VksortSortInfo& info, VkQueryPool pool, uint32_t firstQuery,
                         VkQueryPool outerPool, uint32_t outerQuery);

    vkctx::Context& ctx_;
    VksortSorter sorter_;
    VksortKeyType keyType_;
    VksortValueType valueType_;
    vkctx::Buffer keys_, values_, scratch_, pristineKeys_, pristineValues_;
    bool indirect_ = false;
    std::unique_ptr<vkctx::GpuCount> count_; // an indirect sort's count, written before every sort
    // With a sorter that pushes its descriptors the buffers go to every sort (pBuffers), as the
    // README does; otherwise through a bindings object.
    VksortBindingsCreateInfo buffers_{};
    VksortBindings bindings_ = VK_NULL_HANDLE;
    bool copyValues_ = false;
    double lastRecordUs_ = 0; // the last recordIteration's vksort call
};
