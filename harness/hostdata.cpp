#include "hostdata.hpp"

#include <algorithm>
#include <cstring>
#include <random>

namespace hostdata {

bool parseDistribution(const std::string& text, Distribution* out) {
    Distribution d;
    auto parameter = [&](const char* prefix, Distribution::Kind kind) {
        size_t n = std::strlen(prefix);
        if (text.compare(0, n, prefix) != 0) return false;
        char* end = nullptr;
        unsigned long v = std::strtoul(text.c_str() + n, &end, 10);
        if (end == text.c_str() + n || *end != '\0' || v > UINT32_MAX) return false;
        d.kind = kind;
        d.parameter = uint32_t(v);
        return true;
    };
    if (text == "uniform") d.kind = Distribution::Uniform;
    else if (text == "sorted") d.kind = Distribution::Sorted;
    else if (text == "reversed") d.kind = Distribution::Reversed;
    else if (text == "equal") d.kind = Distribution::Equal;
    else if (parameter("few:", Distribution::Few)) {
        if (d.parameter == 0) return false;
    } else if (parameter("bits:", Distribution::Bits)) {
        if (d.parameter > 64) return false;
    } else return false;
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
    }
    return "?";
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
        std::vector<uint64_t> pool(dist.parameter);
        for (auto& k : pool) k = randomKey(rng, keyType, width);
        for (auto& k : keys) k = pool[rng() % pool.size()];
        break;
    }
    }
    if (dist.kind == Distribution::Sorted || dist.kind == Distribution::Reversed) {
        // Sorted in the key type's own ascending order.
        std::stable_sort(keys.begin(), keys.end(), [&](uint64_t a, uint64_t b) {
            return sortKey(a, keyType, VKSORT_ORDER_ASCENDING, 0, width) <
                   sortKey(b, keyType, VKSORT_ORDER_ASCENDING, 0, width);
        });
        if (dist.kind == Distribution::Reversed) std::reverse(keys.begin(), keys.end());
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
