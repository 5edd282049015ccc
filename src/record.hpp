// Command recording: the data path of a sort, pass by pass. Also the entry points tests use to
// run one pass alone against a CPU model.
#pragma once

#include "objects.hpp"

namespace vksort {

// Everything one digit pass needs besides the bindings.
struct PassParams {
    uint32_t count = 0;
    uint32_t shift = 0;  // lowest key bit of the digit
    uint32_t endBit = 0; // one past the highest key bit sorted
    uint32_t flags = 0;  // kFlag* bits
    uint32_t table = 0;  // counts table of this pass (pass % kHistogramTables)
    BindingSet set = kSetForward;
};

// Whether the reorder sums the counts itself instead of a scan dispatch (few tiles).
bool useInlineScan(uint32_t numTiles);

// kFlag* bits for a key type and order.
uint32_t orderFlags(VksortKeyType keyType, VksortOrder order);

// Binds the pass's descriptor set and push constants (kept across the pipelines of the pass).
void bindPass(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
              const PassParams& pass);
// Each binds its pipeline and dispatches; bindPass must have been recorded first. With
// kFlagIndirect in pass.flags the launch comes from the arguments the setup dispatch wrote.
void dispatchHistogram(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                   const PassParams& pass);
void dispatchScan(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                  const PassParams& pass);
void dispatchReorder(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                     const PassParams& pass);
// The whole sort in one workgroup (count <= sorter.singleTile.tileSize()): `pass` carries the
// first pass's shift, the end bit, and the set that leaves the result where the passes would.
void dispatchSingle(VkCommandBuffer cmd, const VksortSorter_T& sorter, const VksortBindings_T& bindings,
                   const PassParams& pass);
// Compute writes before it are visible to compute reads and writes after it, and with
// `indirect` to the launch-argument reads of indirect dispatches too (the passes write the
// tables binding, which holds the arguments).
void recordComputeBarrier(VkCommandBuffer cmd, const VksortSorter_T& sorter, bool indirect = false);

} // namespace vksort
