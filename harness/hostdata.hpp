// Host-side inputs and the reference result: key distributions, the CPU model of the order
// vksort promises (std::stable_sort), and the verdict on a GPU result.
#pragma once

#include <vksort/vksort.h>

#include "keyorder.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace hostdata {

struct Distribution {
    enum Kind { Uniform, Sorted, Reversed, Equal, Few, Bits } kind = Uniform;
    uint32_t parameter = 0; // K for Few, B for Bits
};

// Parses uniform | sorted | reversed | equal | few:K | bits:B.
bool parseDistribution(const std::string& text, Distribution* out);
std::string toString(const Distribution& d);

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
// specials mixed in (+-0, +-inf, NaNs of both signs), so every class of IEEE value occurs.
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
