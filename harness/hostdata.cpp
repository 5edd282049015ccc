// SPDX-License-Identifier: MIT
#include "hostdata.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>

namespace hostdata {

namespace {

// The number after `prefix` in `text` (decimal), when `text` starts with it.
enum class Number { NoPrefix, Bad, Ok };
Number numberAfter(const std::string& text, const char* prefix, uint64_t* out) {
    const size_t n = std::strlen(prefix);
    if (text.compare(0, n, prefix) != 0) return Number::NoPrefix;
    const char* digits = text.c_str() + n;
    char* end = nullptr;
    unsigned long long v = std::strtoull(digits, &end, 10);
    if (end == digits || *end != '\0' || *digits == '-' || *digits == '+') return Number::Bad;
    *out = v;
    return Number::Ok;
}

// Refusals name the distribution and what its parameter may be.
bool refuse(std::string* why, const std::string& reason) {
    if (why != nullptr) *why = reason;
    return false;
}

} // namespace

bool parseDistribution(const std::string& text, Distribution* out, std::string* why) {
    Distribution d;
    if (text == "uniform") d.kind = Distribution::Uniform;
    else if (text == "sorted") d.kind = Distribution::Sorted;
    else if (text == "reversed") d.kind = Distribution::Reversed;
    else if (text == "equal") d.kind = Distribution::Equal;
    else if (text == "depth") d.kind = Distribution::Depth;
    else if (text == "tile-depth") {
        d.kind = Distribution::TileDepth;
        d.parameter = kDefaultDepthTiles;
    } else {
        // NAME:PARAMETER, the parameter in [least, most] (and for morton a multiple of 3).
        struct Parametric {
            const char* prefix;
            Distribution::Kind kind;
            uint64_t least, most;
            const char* rule;
        };
        static const Parametric kinds[] = {
            {"few:", Distribution::Few, 1, 1u << 24, "few:K takes K, the number of distinct keys, from 1 to 16777216"},
            {"bits:", Distribution::Bits, 0, 64, "bits:B takes B, the random low bits, from 0 to 64"},
            {"tile-depth:", Distribution::TileDepth, 1, UINT32_MAX,
             "tile-depth:T takes T, the number of tiles, from 1 to 4294967295 (default 4096)"},
            {"morton:", Distribution::Morton, 3, 63,
             "morton:B takes B, the code's bits, a multiple of 3 from 3 to 63 (e.g. morton:30)"},
            {"nearly:", Distribution::Nearly, 0, 100,
             "nearly:P takes P, the percentage of keys moved out of order, from 0 to 100"},
        };
        const Parametric* kind = nullptr;
        uint64_t v = 0;
        Number number = Number::NoPrefix;
        for (const Parametric& k : kinds) {
            number = numberAfter(text, k.prefix, &v);
            if (number == Number::NoPrefix) continue;
            kind = &k;
            break;
        }
        if (kind == nullptr) return refuse(why, "");
        if (number != Number::Ok || v < kind->least || v > kind->most ||
            (kind->kind == Distribution::Morton && v % 3 != 0)) {
            return refuse(why, kind->rule);
        }
        d.kind = kind->kind;
        d.parameter = uint32_t(v);
    }
    *out = d;
    return true;
}

std::string toString(const Distribution& d) {
    switch (d.kind) {
    case Distribution::Uniform: return "uniform";
    case Distribution::Sorted: return "sorted";
    case Distribution::Reversed: return "reversed";
    case Distribution::Equal: return "equal";
    case Distribution::Few: return "few:" + std::to_string(d.parameter);
    case Distribution::Bits: return "bits:" + std::to_string(d.parameter);
    case Distribution::Depth: return "depth";
    case Distribution::TileDepth: return "tile-depth:" + std::to_string(d.parameter);
    case Distribution::Morton: return "morton:" + std::to_string(d.parameter);
    case Distribution::Nearly: return "nearly:" + std::to_string(d.parameter);
    }
    return "?";
}

const char* distributionNames() {
    return "uniform, sorted, reversed, equal, few:K, bits:B, depth, tile-depth[:T], morton:B, nearly:P";
}

std::string distributionHelp(int indent) {
    static const char* const lines[] = {
        "uniform         random bit patterns (floats: with zeros, infinities,",
        "                NaNs and denormals mixed in)",
        "sorted          uniform keys in ascending order",
        "reversed        uniform keys in descending order",
        "equal           one key, repeated",
        "few:K           K distinct keys (1 to 16777216)",
        "bits:B          uniform in the low B bits (0 to 64)",
        "depth           view depths: f32 uniform in [1, 100), as f32 bits",
        "                (the low 32 bits of 64-bit keys)",
        "tile-depth[:T]  64-bit keys only: a tile id uniform in [0, T) (default",
        "                4096) in the high 32 bits, a depth in the low 32",
        "morton:B        B-bit Morton codes of random 3D points (B a multiple",
        "                of 3, at most 30 for 32-bit keys, 63 for 64-bit)",
        "nearly:P        sorted, then P percent of the keys (0 to 100) swapped",
        "                with a neighbour at most 16 places away",
    };
    std::string text;
    for (const char* line : lines) text += std::string(size_t(indent), ' ') + line + "\n";
    return text;
}

bool distributionFits(const Distribution& d, VksortKeyType type, std::string* why) {
    const uint32_t width = vksortKeySize(type) * 8u;
    if (d.kind == Distribution::TileDepth && width < 64) {
        return refuse(why, toString(d) + " puts a tile id above a 32-bit depth: it needs 64-bit keys (u64, i64, "
                                         "f64), not " + std::string(toString(type)));
    }
    if (d.kind == Distribution::Morton && d.parameter > width) {
        return refuse(why, toString(d) + " needs 64-bit keys: " + std::string(toString(type)) +
                               " keys hold Morton codes of at most 30 bits (morton:30)");
    }
    return true;
}

namespace {
const char* const kKeyNames[] = {"u32", "i32", "f32", "u64", "i64", "f64"};
const char* const kValueNames[] = {"none", "u32", "u64", "index"};
} // namespace

bool parseKeyType(const std::string& text, VksortKeyType* out) {
    for (int i = 0; i < 6; ++i) {
        if (text == kKeyNames[i]) {
            *out = VksortKeyType(i);
            return true;
        }
    }
    return false;
}

bool parseValueType(const std::string& text, VksortValueType* out) {
    for (int i = 0; i < 4; ++i) {
        if (text == kValueNames[i]) {
            *out = VksortValueType(i);
            return true;
        }
    }
    return false;
}

bool parseOrder(const std::string& text, VksortOrder* out) {
    if (text != "asc" && text != "desc") return false;
    *out = text == "asc" ? VKSORT_ORDER_ASCENDING : VKSORT_ORDER_DESCENDING;
    return true;
}

const char* toString(VksortKeyType type) { return kKeyNames[int(type)]; }
const char* toString(VksortValueType type) { return kValueNames[int(type)]; }
uint32_t keyBits(VksortKeyType type) { return vksortKeySize(type) * 8u; }
bool isFloat(VksortKeyType type) { return type == VKSORT_KEY_TYPE_FLOAT32 || type == VKSORT_KEY_TYPE_FLOAT64; }
keyorder::Kind keyKind(VksortKeyType type) {
    if (isFloat(type)) return keyorder::Kind::Float;
    if (type == VKSORT_KEY_TYPE_INT32 || type == VKSORT_KEY_TYPE_INT64) return keyorder::Kind::Signed;
    return keyorder::Kind::Unsigned;
}

uint64_t Data::key(uint32_t i) const {
    uint64_t v = 0;
    std::memcpy(&v, keys.data() + size_t(i) * vksortKeySize(keyType), vksortKeySize(keyType));
    return v;
}

uint64_t Data::value(uint32_t i) const {
    uint32_t vb = vksortValueSize(valueType);
    uint64_t v = 0;
    if (!values.empty()) std::memcpy(&v, values.data() + size_t(i) * vb, vb);
    return v;
}

namespace {

// A random key: bit patterns below 2^bits; floats mix in the special values.
uint64_t randomKey(std::mt19937_64& rng, VksortKeyType type, uint32_t bits) {
    uint64_t v = rng();
    if (bits < 64) v &= (uint64_t(1) << bits) - 1;
    if (isFloat(type) && bits >= keyBits(type) && rng() % 8 == 0) {
        bool wide = type == VKSORT_KEY_TYPE_FLOAT64;
        uint64_t sign = wide ? uint64_t(1) << 63 : uint64_t(1) << 31;
        uint64_t inf = wide ? 0x7FF0000000000000ull : 0x7F800000ull;
        uint64_t quiet = wide ? 0x0008000000000000ull : 0x00400000ull;
        uint64_t payloadMask = wide ? 0x0007FFFFFFFFFFFFull : 0x003FFFFFull;
        switch (rng() % 6) {
        case 0: v = 0; break;                                   // +0.0
        case 1: v = sign; break;                                // -0.0
        case 2: v = inf | (rng() % 2 ? sign : 0); break;        // +-inf
        case 3: v = inf | quiet | (rng() & payloadMask) | (rng() % 2 ? sign : 0); break; // quiet NaNs
        case 4: v = inf | 1 | (rng() & payloadMask) | (rng() % 2 ? sign : 0); break;     // signalling NaNs
        default: v = (rng() % 2 ? sign : 0) | (rng() & (wide ? 0x000FFFFFFFFFFFFFull : 0x007FFFFFull)); break; // denormals
        }
    }
    if (!(keyBits(type) == 64)) v &= 0xFFFFFFFFull;
    return v;
}

// A view depth: f32 uniform in [1, 100) (24 random bits of fraction), as its bit pattern.
uint32_t depthBits(std::mt19937_64& rng) {
    const double fraction = std::ldexp(double(rng() >> 40), -24); // [0, 1)
    float depth = float(1.0 + 99.0 * fraction);
    if (!(depth < 100.0f)) depth = std::nextafter(100.0f, 0.0f); // (rounding can reach 100)
    uint32_t bits = 0;
    std::memcpy(&bits, &depth, sizeof bits);
    return bits;
}

// The Morton code of a uniform random point on a 2^(bits/3) grid in 3D: bit i of x, y and z at
// bits 3i, 3i + 1 and 3i + 2.
uint64_t mortonCode(std::mt19937_64& rng, uint32_t bits) {
    const uint32_t axisBits = bits / 3;
    const uint64_t mask = (uint64_t(1) << axisBits) - 1;
    uint64_t axes[3] = {rng() & mask, rng() & mask, rng() & mask};
    uint64_t code = 0;
    for (uint32_t i = 0; i < axisBits; ++i) {
        for (uint32_t a = 0; a < 3; ++a) code |= ((axes[a] >> i) & 1) << (3 * i + a);
    }
    return code;
}

} // namespace

Data generate(VksortKeyType keyType, VksortValueType valueType, uint32_t count, const Distribution& dist,
              uint64_t seed) {
    Data d;
    d.keyType = keyType;
    d.valueType = valueType;
    d.count = count;
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 1);
    uint32_t kb = vksortKeySize(keyType), width = keyBits(keyType);
    std::vector<uint64_t> keys(count);
    switch (dist.kind) {
    case Distribution::Uniform:
    case Distribution::Sorted:
    case Distribution::Reversed:
    case Distribution::Nearly:
        for (auto& k : keys) k = randomKey(rng, keyType, width);
        break;
    case Distribution::Bits:
        for (auto& k : keys) k = randomKey(rng, keyType, std::min(dist.parameter, width));
        break;
    case Distribution::Equal: {
        uint64_t k = randomKey(rng, keyType, width);
        std::fill(keys.begin(), keys.end(), k);
        break;
    }
    case Distribution::Few: {
        std::vector<uint64_t> pool(std::max(dist.parameter, 1u));
        for (auto& k : pool) k = randomKey(rng, keyType, width);
        for (auto& k : keys) k = pool[rng() % pool.size()];
        break;
    }
    case Distribution::Depth:
        for (auto& k : keys) k = depthBits(rng);
        break;
    case Distribution::TileDepth:
        for (auto& k : keys) {
            const uint64_t tile = rng() % std::max(dist.parameter, 1u);
            k = (tile << 32) | depthBits(rng);
        }
        break;
    case Distribution::Morton:
        for (auto& k : keys) k = mortonCode(rng, std::min(dist.parameter, 63u));
        break;
    }
    if (width < 64) {
        for (auto& k : keys) k &= 0xFFFFFFFFull; // (a distribution that does not fit: its low bits)
    }
    if (dist.kind == Distribution::Sorted || dist.kind == Distribution::Reversed || dist.kind == Distribution::Nearly) {
        // Sorted in the key type's own ascending order.
        std::stable_sort(keys.begin(), keys.end(), [&](uint64_t a, uint64_t b) {
            return sortKey(a, keyType, VKSORT_ORDER_ASCENDING, 0, width) <
                   sortKey(b, keyType, VKSORT_ORDER_ASCENDING, 0, width);
        });
        if (dist.kind == Distribution::Reversed) std::reverse(keys.begin(), keys.end());
    }
    if (dist.kind == Distribution::Nearly && count > 1) {
        // Each key, with probability P percent, trades places with a neighbour 1 to 16 places
        // before or after it (clamped to the array): last frame's order, slightly disturbed.
        for (uint32_t i = 0; i < count; ++i) {
            if (rng() % 100 >= dist.parameter) continue;
            const uint32_t step = uint32_t(rng() % 32);
            const int64_t offset = step < 16 ? -int64_t(step) - 1 : int64_t(step) - 15;
            const int64_t j = std::min<int64_t>(std::max<int64_t>(int64_t(i) + offset, 0), int64_t(count) - 1);
            std::swap(keys[i], keys[size_t(j)]);
        }
    }
    d.keys.resize(size_t(count) * kb);
    for (uint32_t i = 0; i < count; ++i) std::memcpy(d.keys.data() + size_t(i) * kb, &keys[i], kb);

    if (valueType == VKSORT_VALUE_TYPE_UINT32 || valueType == VKSORT_VALUE_TYPE_UINT64) {
        uint32_t vb = vksortValueSize(valueType);
        d.values.resize(size_t(count) * vb);
        for (uint32_t i = 0; i < count; ++i) {
            // Unique per element: the index, with a fixed pattern in the high word for u64.
            uint64_t v = valueType == VKSORT_VALUE_TYPE_UINT64 ? (uint64_t(~i) << 32) | i : i;
            std::memcpy(d.values.data() + size_t(i) * vb, &v, vb);
        }
    }
    return d;
}

uint64_t sortKey(uint64_t bits, VksortKeyType type, VksortOrder order, uint32_t beginBit, uint32_t endBit,
                 keyorder::Zeros zeros) {
    return keyorder::sortKey(bits, keyBits(type), keyKind(type), order == VKSORT_ORDER_DESCENDING, beginBit, endBit,
                             zeros);
}

std::vector<uint32_t> referencePermutation(const Data& data, VksortOrder order, uint32_t beginBit, uint32_t endBit) {
    std::vector<uint64_t> sortKeys(data.count);
    for (uint32_t i = 0; i < data.count; ++i) sortKeys[i] = sortKey(data.key(i), data.keyType, order, beginBit, endBit);
    std::vector<uint32_t> permutation(data.count);
    for (uint32_t i = 0; i < data.count; ++i) permutation[i] = i;
    std::stable_sort(permutation.begin(), permutation.end(),
                     [&](uint32_t a, uint32_t b) { return sortKeys[a] < sortKeys[b]; });
    return permutation;
}

Verdict verify(const Data& input, const std::vector<uint32_t>& permutation, const uint8_t* outKeys,
               const uint8_t* outValues) {
    Verdict v;
    uint32_t kb = vksortKeySize(input.keyType);
    uint32_t vb = vksortValueSize(input.valueType);
    for (uint32_t i = 0; i < input.count; ++i) {
        uint64_t got = 0;
        std::memcpy(&got, outKeys + size_t(i) * kb, kb);
        uint64_t want = input.key(permutation[i]);
        if (got != want) {
            v.ok = false;
            v.detail = "key at " + std::to_string(i) + " is " + std::to_string(got) + ", expected " +
                       std::to_string(want) + " (input index " + std::to_string(permutation[i]) + ")";
            return v;
        }
        if (vb == 0 || outValues == nullptr) continue;
        uint64_t gotValue = 0;
        std::memcpy(&gotValue, outValues + size_t(i) * vb, vb);
        uint64_t wantValue = input.valueType == VKSORT_VALUE_TYPE_INDEX ? permutation[i] : input.value(permutation[i]);
        if (gotValue != wantValue) {
            v.ok = false;
            v.detail = "value at " + std::to_string(i) + " is " + std::to_string(gotValue) + ", expected " +
                       std::to_string(wantValue) + " (order, permutation or stability broken)";
            return v;
        }
    }
    return v;
}

} // namespace hostdata
