// SPDX-License-Identifier: MIT
// What vrdx-bench and fuchsia-bench share: the command line (sort-test's sweep options, through
// toolutil), the timing loop of `sort-test --bench` (the input restored on the GPU by a buffer
// copy outside the timestamps, a warm-up, then back-to-back timed sorts in one submission, each
// between two timestamps), verification against std::stable_sort (hostdata) and the JSON record
// (sort-test's `results` fields). Each tool supplies a Peer: which formats the library sorts, what
// it needs of the device, and a PeerRig that records its sort.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hostdata.hpp"
#include "toolutil.hpp"
#include "vkcontext.hpp"

namespace peerbench {

// The GPU side of one format (key type, value kind) for up to `capacity` elements.
class PeerRig {
public:
    virtual ~PeerRig() = default;
    // Uploads `input` (in the library's own layout) as the pristine copy every sort starts from,
    // and its count as a GPU count's.
    virtual void load(const hostdata::Data& input) = 0;
    // Records the copy of the pristine input into the buffers the sort reads (transfer writes, and
    // compute-shader writes of a GPU count).
    virtual void recordRestore(VkCommandBuffer cmd, uint32_t count) = 0;
    // Records the library's sort of `count` elements.
    virtual void recordSort(VkCommandBuffer cmd, uint32_t count) = 0;
    // Downloads the sorted keys and values (after a sort of `count` elements) as hostdata lays
    // them out: keys, and values (u32: 4 bytes each) when the format has them.
    virtual void readResult(uint32_t count, std::vector<uint8_t>* keys, std::vector<uint8_t>* values) = 0;
    // Wall time of creating the library's sorter (its pipelines) for this rig, in ms.
    double createMs = 0;
};

struct Peer {
    const char* tool;    // "vrdx-bench"
    const char* library; // "vrdx", the JSON's "library"
    std::string version; // the library's version or source revision
    std::vector<VksortKeyType> keyTypes;     // what --keys may name
    std::vector<VksortValueType> valueTypes; // what --values may name
    // Whether the library sorts this combination of key and value (the others are skipped).
    std::function<bool(VksortKeyType, VksortValueType)> sorts;
    // The largest count the library takes for a format on this device.
    std::function<uint32_t(vkctx::Context&, VksortKeyType, VksortValueType)> maxCount;
    // The tool's own options, their usage lines and what they take (may be empty).
    std::function<toolutil::Parsed(toolutil::Args&)> ownOption;
    std::string ownUsage;
    toolutil::TakesFn ownTakes;
    // What the library needs of the device (called once the physical device is chosen, before the
    // device exists), and a line describing the library's configuration there (printed and written
    // to the JSON).
    std::function<vkctx::DeviceRequirements(const vkctx::Context&)> requirements;
    std::function<std::string(vkctx::Context&)> configuration;
    // A rig for one format.
    std::function<std::unique_ptr<PeerRig>(vkctx::Context&, VksortKeyType, VksortValueType, uint32_t capacity)>
        makeRig;
};

// Parses the command line, runs the sweep, prints the table, writes --json. Returns the exit
// status: 0 every verified point matched, 1 a mismatch, a validation message or a runtime failure;
// bad usage ends the program with status 2.
int run(int argc, char** argv, const Peer& peer);

} // namespace peerbench
