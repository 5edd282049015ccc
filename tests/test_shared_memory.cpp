// SPDX-License-Identifier: MIT
// The host's mirror of each kernel's shared memory (src/plan.cpp), which decides whether a tile fits
// the device, against what the compiled SPIR-V declares: every Workgroup variable's size, with the
// specialization constants the sorter would pass. A shared array added to or removed from a shader
// without the host's mirror fails here, on the CPU.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "spirv.hpp"

using namespace vksort;

namespace {

// Just enough of SPIR-V to size Workgroup variables: integer and array types, constants,
// specialization constants and the spec-constant operations glslang emits for array sizes.
class SharedMemoryReflection {
public:
    SharedMemoryReflection(const SpirvBlob& blob, const std::map<uint32_t, uint64_t>& specialization)
        : words_(blob.words, blob.words + blob.wordCount), specialization_(specialization) {
        REQUIRE(words_.size() > 5);
        REQUIRE(words_[0] == 0x07230203u);
        for (size_t at = 5; at < words_.size();) {
            const uint32_t count = words_[at] >> 16, opcode = words_[at] & 0xFFFFu;
            REQUIRE(count != 0);
            REQUIRE(at + count <= words_.size());
            instruction(opcode, &words_[at + 1], count - 1);
            at += count;
        }
    }

    // Bytes of every Workgroup variable, summed.
    uint64_t bytes() const {
        uint64_t total = 0;
        for (uint32_t pointer : workgroupVariables_) total += sizeOf(pointee_.at(pointer));
        return total;
    }

private:
    enum : uint32_t {
        OpTypeBool = 20, OpTypeInt = 21, OpTypeVector = 23, OpTypeArray = 28, OpTypeStruct = 30,
        OpTypePointer = 32, OpConstantTrue = 41, OpConstantFalse = 42, OpConstant = 43,
        OpConstantComposite = 44, OpSpecConstantTrue = 48, OpSpecConstantFalse = 49,
        OpSpecConstant = 50, OpSpecConstantComposite = 51, OpSpecConstantOp = 52, OpVariable = 59,
        OpDecorate = 71, OpCompositeExtract = 81, OpIAdd = 128, OpISub = 130, OpIMul = 132,
        OpUDiv = 134, OpUMod = 137, DecorationSpecId = 1, StorageWorkgroup = 4,
    };

    void instruction(uint32_t opcode, const uint32_t* op, uint32_t n) {
        switch (opcode) {
        case OpDecorate:
            if (op[1] == DecorationSpecId) specId_[op[0]] = op[2];
            break;
        case OpTypeBool: size_[op[0]] = 4; break;
        case OpTypeInt: size_[op[0]] = op[1] / 8; break;
        case OpTypeVector: size_[op[0]] = size_.at(op[1]) * op[2]; break;
        case OpTypeArray: arrays_[op[0]] = {op[1], op[2]}; break;
        case OpTypeStruct: structs_[op[0]] = std::vector<uint32_t>(op + 1, op + n); break;
        case OpTypePointer: pointee_[op[0]] = op[2]; break;
        case OpConstantTrue: value_[op[1]] = 1; break;
        case OpConstantFalse: value_[op[1]] = 0; break;
        case OpConstant: value_[op[1]] = op[2]; break;
        case OpSpecConstantTrue:
        case OpSpecConstantFalse:
        case OpSpecConstant: {
            const uint64_t fallback = opcode == OpSpecConstant ? op[2] : opcode == OpSpecConstantTrue;
            auto id = specId_.find(op[1]);
            auto set = id == specId_.end() ? specialization_.end() : specialization_.find(id->second);
            value_[op[1]] = set == specialization_.end() ? fallback : set->second;
            break;
        }
        case OpConstantComposite:
        case OpSpecConstantComposite: composite_[op[1]] = std::vector<uint32_t>(op + 2, op + n); break;
        case OpSpecConstantOp: specOps_[op[1]] = std::vector<uint32_t>(op + 2, op + n); break;
        case OpVariable:
            if (op[2] == StorageWorkgroup) workgroupVariables_.push_back(op[0]);
            break;
        default: break;
        }
    }

    // A constant's value, evaluating spec-constant operations when a size needs them (only those
    // that array sizes use are modelled).
    uint64_t value(uint32_t id) const {
        if (auto v = value_.find(id); v != value_.end()) return v->second;
        const std::vector<uint32_t>& op = specOps_.at(id);
        REQUIRE(!op.empty());
        const uint32_t opcode = op[0];
        if (opcode == OpCompositeExtract) {
            REQUIRE(op.size() == 3);
            return value(composite_.at(op[1]).at(op[2]));
        }
        REQUIRE(op.size() == 3);
        const uint64_t a = value(op[1]), b = value(op[2]);
        switch (opcode) {
        case OpIAdd: return (a + b) & 0xFFFFFFFFu;
        case OpISub: return (a - b) & 0xFFFFFFFFu;
        case OpIMul: return (a * b) & 0xFFFFFFFFu;
        case OpUDiv: REQUIRE(b != 0); return a / b;
        case OpUMod: REQUIRE(b != 0); return a % b;
        }
        FAIL("spec-constant operation " << opcode << " is not modelled; add it here");
        return 0;
    }

    uint64_t sizeOf(uint32_t type) const {
        if (auto s = size_.find(type); s != size_.end()) return s->second;
        if (auto a = arrays_.find(type); a != arrays_.end()) return sizeOf(a->second.first) * value(a->second.second);
        if (auto s = structs_.find(type); s != structs_.end()) {
            uint64_t total = 0;
            for (uint32_t member : s->second) total += sizeOf(member);
            return total;
        }
        FAIL("type %" << type << " of a shared variable is not modelled");
        return 0;
    }

    std::vector<uint32_t> words_;
    std::map<uint32_t, uint64_t> specialization_;
    std::map<uint32_t, uint32_t> specId_, pointee_;
    std::map<uint32_t, uint64_t> size_, value_;
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> arrays_; // element type, length id
    std::map<uint32_t, std::vector<uint32_t>> structs_, composite_, specOps_; // specOps_: opcode, operands
    std::vector<uint32_t> workgroupVariables_;
};

uint64_t reflectedBytes(const char* name, const TileConfig& tile) {
    const SpirvBlob* blob = findSpirv(name);
    REQUIRE(blob != nullptr);
    // The constants src/pipelines.cpp passes.
    const std::map<uint32_t, uint64_t> constants = {{kSpecWorkgroupSize, tile.workgroupSize},
                                                    {kSpecKeysPerThread, tile.keysPerThread},
                                                    {kSpecMaxSubgroups, tile.maxSubgroups},
                                                    {kSpecExchangeBuffers, tile.exchangeBuffers},
                                                    {kSpecScanOneRangeMaxTiles, 3072},
                                                    {kSpecScanRangeMinTiles, 256},
                                                    {kSpecScanItemsPerThread, 16},
                                                    {kSpecMergeKeyLanes, tile.keyLanes},
                                                    {kSpecMergeWideKeyLanes, tile.wideKeyLanes},
                                                    {kSpecMergeWindowRoom, tile.windowRoom}};
    return SharedMemoryReflection(*blob, constants).bytes();
}

} // namespace

TEST_CASE("shared memory: the host's mirror of every kernel matches its SPIR-V", "[plan]") {
    for (const TileConfig& tile : {TileConfig{256, 8, 8, true}, TileConfig{256, 8, 64, false},
                                   TileConfig{16, 4, 4, false}, TileConfig{1024, 16, 32, true},
                                   TileConfig{128, 32, 128, false}, TileConfig{256, 16, 8, true, 2},
                                   TileConfig{512, 8, 16, true, 2}, TileConfig{1024, 1, 32, true, 1, 4, 2, 1, 10560},
                                   TileConfig{64, 1, 16, false, 1, 8, 8, 1, 100}}) {
        INFO("tile " << tile.workgroupSize << " x " << tile.keysPerThread << ", " << tile.maxSubgroups << " subgroups, "
                     << tile.exchangeBuffers << " exchange buffers, " << tile.keyLanes << " and " << tile.wideKeyLanes
                     << " invocations per key, windows of " << tile.windowRoom << " keys");
        for (uint32_t kernel = 0; kernel < kKernelCount; ++kernel) {
            const KernelInfo& info = kKernels[kernel];
            for (uint32_t k = 0; k < (info.perKeyWidth ? 2u : 1u); ++k) {
                for (uint32_t v = 0; v < (info.perValueWidth ? 3u : 1u); ++v) {
                    for (bool shuffle : {false, true}) {
                        for (bool skip : {false, true}) {
                            if ((shuffle && !info.shuffleTwin) || (skip && !info.variantTwin)) continue;
                            const std::string name = variantName(Kernel(kernel), k, v, shuffle, skip ? "_skip" : "");
                            INFO(name);
                            // A pipeline of one key width's keys (TileConfig::keyWords).
                            TileConfig keyed = tile;
                            keyed.keyWords = info.perKeyWidth ? k + 1 : 1;
                            CHECK(reflectedBytes(name.c_str(), keyed) == info.sharedMemoryBytes(keyed, skip));
                        }
                    }
                }
            }
        }
    }
}
