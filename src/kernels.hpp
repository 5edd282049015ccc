// SPDX-License-Identifier: MIT
// The kernels as data: shaders/vksort_kernels.h, a row per kernel, read here as the Kernel enum and
// kKernels. Everything that varies by kernel (its SPIR-V variants, which of them the sorter
// creates, their names, tiles and shared memory) follows from a row, so adding a kernel is a row
// and its shader, with no switch elsewhere.
#pragma once

#include <cstdint>
#include <string>

#include "plan.hpp"

namespace vksort {

enum class Kernel : uint32_t {
#define VKSORT_KERNEL(id, name, source, perKeyWidth, perValueWidth, shuffleTwin, variantTwin, secondPipeline, segmented, tile, sharedMemory) id,
#include "../shaders/vksort_kernels.h"
#undef VKSORT_KERNEL
};

// The tile a kernel's pipeline is specialized with.
// SingleMain: the main tile, for the single-workgroup sort's kernel (its choices, not the reorder's).
// Counts: the main tile over the tile counts step's workgroup (chooseCountsTileConfig).
enum class KernelTile : uint32_t { Main, Single, Scan, Tiny, Short, Compare, Merge, SingleMain, Counts };

struct KernelInfo {
    const char* name;    // its variants' name prefix (shaders/vksort_kernels.h names its source)
    bool perKeyWidth;    // a variant per key width: _k1, _k2
    bool perValueWidth;  // a variant per value width: _v0, _v1, _v2
    bool shuffleTwin;    // a _shuffle twin, used on devices with subgroup shuffles
    bool variantTwin;    // a twin that sorter variants run (src/variant.hpp, twinSuffix)
    bool secondPipeline; // in such variants, a second pipeline of the twin, specialized with
                         // kSpecVariantPipeline, for the steps that ask for it (Step::second)
    bool segmented;      // only sorters with VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT create it
    KernelTile tile;
    uint32_t (*sharedMemoryBytes)(const TileConfig&, bool twin); // what it declares for its tile (src/plan.hpp)
};

inline constexpr KernelInfo kKernels[] = {
#define VKSORT_KERNEL(id, name, source, perKeyWidth, perValueWidth, shuffleTwin, variantTwin, secondPipeline, segmented, tile, sharedMemory) \
    {#name, perKeyWidth != 0, perValueWidth != 0, shuffleTwin != 0, variantTwin != 0, secondPipeline != 0, segmented != 0, KernelTile(tile), sharedMemory},
#include "../shaders/vksort_kernels.h"
#undef VKSORT_KERNEL
};
constexpr uint32_t kKernelCount = sizeof(kKernels) / sizeof(kKernels[0]);

inline const KernelInfo& kernelInfo(Kernel kernel) { return kKernels[uint32_t(kernel)]; }

// The SPIR-V variant of a kernel for a key width index (0: 32-bit, 1: 64-bit) and a value width
// index (0 none, 1: 32-bit, 2: 64-bit): "<name>[_k<words>][_v<words>][_shuffle][<twin suffix>]"
// (a sorter variant's, src/variant.hpp); the indices and twins a kernel does not vary by are
// ignored.
inline std::string variantName(Kernel kernel, uint32_t keyWidth, uint32_t valueWidth, bool shuffle,
                               const char* twinSuffix = "") {
    const KernelInfo& k = kernelInfo(kernel);
    std::string name = k.name;
    if (k.perKeyWidth) name += "_k" + std::to_string(keyWidth + 1);
    if (k.perValueWidth) name += "_v" + std::to_string(valueWidth);
    if (k.shuffleTwin && shuffle) name += "_shuffle";
    if (k.variantTwin) name += twinSuffix;
    return name;
}

} // namespace vksort
