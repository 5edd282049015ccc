// SPDX-License-Identifier: MIT
// Host-side inputs and the reference result: key distributions, the CPU model of the order
// vksort promises (std::stable_sort), and the verdict on a GPU result.
#pragma once

#include <vksort/vksort.h>

#include "keyorder.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace hostdata {

// The keys' distribution (--dist of sort-test and cub-bench, which share this generator so that
// one seed gives both the same keys). Besides the synthetic ones, the kinds of keys a renderer
// sorts: view depths, tile ids above depths, Morton codes, and last frame's order slightly
// disturbed.
struct Distribution {
    enum Kind { Uniform, Sorted, Reversed, Equal, Few, Bits, Depth, TileDepth, Morton, Nearly } kind = Uniform;
    // K for Few, B for Bits and Morton, T for TileDepth, P for Nearly; unused otherwise.
    uint32_t parameter = 0;
};

// tile-depth without :T.
constexpr uint32_t kDefaultDepthTiles = 4096;

// Parses one of the names distributionHelp() lists. False for anything else, with the reason in
// `why` (when not null) for a known name with a bad parameter.
bool parseDistribution(const std::string& text, Distribution* out, std::string* why = nullptr);
// The name parseDistribution reads back ("few:3", "tile-depth:4096").
std::string toString(const Distribution& d);
// The distributions with their parameters, every line starting with `indent` spaces, for usage
// texts.
std::string distributionHelp(int indent);
// A short list of the names, for error messages: "uniform, sorted, ..., nearly:P".
const char* distributionNames();
// Whether keys of `type` can hold `d` (tile-depth needs 64-bit keys; morton:B needs B bits).
// False with the reason in `why` (when not null). generate() still makes keys of a distribution
// that does not fit: the low bits of each (tile-depth: the depth alone).
bool distributionFits(const Distribution& d, VksortKeyType type, std::string* why = nullptr);

bool parseKeyType(const std::string& text, VksortKeyType* out);     // u32 i32 f32 u64 i64 f64
bool parseValueType(const std::string& text, VksortValueType* out); // none u32 u64 index
bool parseOrder(const std::string& text, VksortOrder* out);          // asc desc
const char* toString(VksortKeyType type);
const char* toString(VksortValueType type);
uint32_t keyBits(VksortKeyType type);
bool isFloat(VksortKeyType type);
keyorder::Kind keyKind(VksortKeyType type);

// Keys and values as raw little-endian bytes, exactly what the GPU buffers hold.
struct Data {
    VksortKeyType keyType = VKSORT_KEY_TYPE_UINT32;
    VksortValueType valueType = VKSORT_VALUE_TYPE_NONE;
    uint32_t count = 0;
    std::vector<uint8_t> keys;
    std::vector<uint8_t> values; // empty for NONE and INDEX

    uint64_t key(uint32_t i) const;
    uint64_t value(uint32_t i) const;
};

// Keys drawn from `dist`. Uniform keys of a floating-point type are random bit patterns with
// specials mixed in (+-0, +-inf, NaNs of both signs), so every class of IEEE value occurs. The
// renderers' distributions are bit patterns whatever the key type: an f32 depth's bits are the
// key's low 32 bits for every key type (for f32 keys the depth itself, for the others a key that
// sorts in the depths' order), a Morton code is the key's low B bits.
// Values are unique per element (derived from the index), which makes stability observable.
Data generate(VksortKeyType keyType, VksortValueType valueType, uint32_t count, const Distribution& dist,
              uint64_t seed);

// The key's bits mapped to the unsigned integer whose ascending order is the requested one,
// restricted to [beginBit, endBit) (keyorder::sortKey): with Zeros::Distinct, the CPU model of
// what vksort sorts by; cub-bench passes CUB's treatment of zeros instead.
uint64_t sortKey(uint64_t bits, VksortKeyType type, VksortOrder order, uint32_t beginBit, uint32_t endBit,
                 keyorder::Zeros zeros = keyorder::Zeros::Distinct);

// Indices of the input in stably sorted order (std::stable_sort on sortKey).
std::vector<uint32_t> referencePermutation(const Data& data, VksortOrder order, uint32_t beginBit, uint32_t endBit);

struct Verdict {
    bool ok = true;
    std::string detail; // the first mismatch, when !ok
};

// Compares GPU output bytes with the input permuted by `permutation`: keys bit for bit, and
// values (or, for INDEX, the permutation itself). `outValues` may be null without values.
Verdict verify(const Data& input, const std::vector<uint32_t>& permutation, const uint8_t* outKeys,
               const uint8_t* outValues);

} // namespace hostdata
