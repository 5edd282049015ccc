// SPDX-License-Identifier: MIT
#include "segments.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "toolutil.hpp"

namespace segmented {

bool parseLayout(const std::string& text, SegmentLayout* out, std::string* why) {
    auto number = [](const std::string& s, uint64_t* v) { return toolutil::parseUnsigned(s, kMaxKeys, v); };
    SegmentLayout l;
    l.text = text;
    uint64_t n = 0, a = 0, b = 0;
    bool ok = false;
    const size_t at = text.find('@'), tilde = text.find('~');
    if (at != std::string::npos) {
        const size_t dash = text.find('-', at + 1);
        l.kind = SegmentLayout::Uniform;
        ok = dash != std::string::npos && number(text.substr(0, at), &n) &&
             number(text.substr(at + 1, dash - at - 1), &a) && number(text.substr(dash + 1), &b);
    } else if (tilde != std::string::npos) {
        l.kind = SegmentLayout::LogNormal;
        ok = number(text.substr(0, tilde), &n) && number(text.substr(tilde + 1), &a);
        b = a;
    } else {
        // NxS; N may be 0x hex as elsewhere, so the first 'x' that splits the text into two numbers.
        l.kind = SegmentLayout::Fixed;
        for (size_t x = text.find('x'); x != std::string::npos && !ok; x = text.find('x', x + 1)) {
            ok = number(text.substr(0, x), &n) && number(text.substr(x + 1), &a);
        }
        b = a;
    }
    if (!ok) {
        *why = text + " is not NxS, N@A-B or N~M (numbers decimal, 0x hex or 2^k, at most 2^32 - 1)";
        return false;
    }
    if (n == 0) {
        *why = text + " has no segments (N is at least 1)";
        return false;
    }
    if (a > b) {
        *why = text + " has A above B";
        return false;
    }
    if (l.kind == SegmentLayout::LogNormal && a == 0) {
        *why = text + " has a mean size M of 0 (at least 1)";
        return false;
    }
    l.segments = uint32_t(n);
    l.low = uint32_t(a);
    l.high = uint32_t(b);
    if (leastKeys(l) > kMaxKeys) {
        *why = text + " holds at least " + std::to_string(leastKeys(l)) +
               " keys, more than a layout's uint32 offsets count (2^32 - 1)";
        return false;
    }
    *out = l;
    return true;
}

bool parseLayouts(const std::string& list, std::vector<SegmentLayout>* out, std::string* why) {
    const std::vector<std::string> items = toolutil::split(list);
    if (items.empty()) {
        *why = "no layout";
        return false;
    }
    for (const std::string& item : items) {
        SegmentLayout layout;
        if (!parseLayout(item, &layout, why)) return false;
        out->push_back(layout);
    }
    return true;
}

const char* layoutsTakes() {
    return "a comma-separated list of segment layouts: NxS (N segments of S keys), N@A-B (N segments of A to B "
           "keys, uniform; A may be 0) or N~M (N segments of log-normal size, mean about M keys); numbers decimal, "
           "0x hex or 2^k, N at least 1; e.g. 1000x2000,2x2^22,2^18@1-32,300@0-40,10000~840";
}

std::string layoutHelp(int indent) {
    static const char* const lines[] = {
        "NxS             N segments of S keys (S may be 0: all empty)",
        "N@A-B           N segments of A to B keys, uniform (A may be 0: some",
        "                empty; many tiny ones: e.g. 2^18@1-32)",
        "N~M             N segments of log-normal size (sigma 1), mean about M",
        "                keys (small M: some round to 0)",
    };
    std::string text;
    for (const char* line : lines) text += std::string(size_t(indent), ' ') + line + "\n";
    return text;
}

uint64_t leastKeys(const SegmentLayout& l) {
    return l.kind == SegmentLayout::LogNormal ? 0 : uint64_t(l.segments) * l.low;
}

bool segmentOffsets(const SegmentLayout& l, uint64_t seed, std::vector<uint32_t>* offsets, uint64_t maxKeys) {
    maxKeys = std::min(maxKeys, kMaxKeys);
    std::mt19937_64 rng(seed * 0xD1B54A32D192ED03ull + 2);
    auto unit = [&]() { return double(rng() >> 11) * (1.0 / 9007199254740992.0); }; // [0, 1), 53 bits
    const double mu = std::log(double(std::max(l.low, 1u))) - 0.5;
    constexpr double kTwoPi = 6.283185307179586;
    offsets->assign(1, 0);
    offsets->reserve(size_t(l.segments) + 1);
    uint64_t total = 0;
    for (uint32_t s = 0; s < l.segments; ++s) {
        uint64_t size = l.low;
        if (l.kind == SegmentLayout::Uniform) {
            size = l.low + rng() % (uint64_t(l.high) - l.low + 1);
        } else if (l.kind == SegmentLayout::LogNormal) {
            const double u1 = 1.0 - unit(), u2 = unit(); // u1 in (0, 1]
            const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
            // (Clamped so that the conversion is defined; a size at the clamp fails below anyway
            // unless the layout is that one segment.)
            size = uint64_t(std::min(std::round(std::exp(mu + z)), double(maxKeys)));
        }
        total += size;
        if (total > maxKeys) return false;
        offsets->push_back(uint32_t(total));
    }
    return true;
}

Sizes sizesOf(const std::vector<uint32_t>& offsets) {
    Sizes s;
    if (offsets.empty()) return s;
    s.segments = uint32_t(offsets.size() - 1);
    s.keys = offsets.back();
    for (size_t i = 0; i + 1 < offsets.size(); ++i) {
        const uint32_t size = offsets[i + 1] - offsets[i];
        s.empty += size == 0 ? 1 : 0;
        s.largest = std::max(s.largest, size);
    }
    return s;
}

hostdata::Verdict verify(const hostdata::Data& input, const std::vector<uint32_t>& offsets, VksortOrder order,
                         uint32_t beginBit, uint32_t endBit, const uint8_t* outKeys, const uint8_t* outValues,
                         IndexBase indexBase, keyorder::Zeros zeros) {
    hostdata::Verdict v;
    if (offsets.empty() || offsets.front() != 0 || offsets.back() != input.count) {
        v.ok = false;
        v.detail = "the segments' offsets do not span the input's " + std::to_string(input.count) + " keys";
        return v;
    }
    const uint32_t kb = vksortKeySize(input.keyType), vb = vksortValueSize(input.valueType);
    std::vector<uint64_t> sortKeys(input.count);
    for (uint32_t i = 0; i < input.count; ++i) {
        sortKeys[i] = hostdata::sortKey(input.key(i), input.keyType, order, beginBit, endBit, zeros);
    }
    std::vector<uint32_t> permutation(input.count);
    for (uint32_t i = 0; i < input.count; ++i) permutation[i] = i;
    auto byKey = [&](uint32_t a, uint32_t b) { return sortKeys[a] < sortKeys[b]; };
    for (size_t s = 0; s + 1 < offsets.size(); ++s) {
        const uint32_t begin = offsets[s], end = offsets[s + 1];
        std::stable_sort(permutation.begin() + begin, permutation.begin() + end, byKey);
        // Where a mismatch is, said only once there is one.
        auto where = [&](uint32_t i) {
            std::string text = "index " + std::to_string(i);
            if (offsets.size() > 2) {
                text = "segment " + std::to_string(s) + " (keys [" + std::to_string(begin) + ", " +
                       std::to_string(end) + ")), " + std::to_string(i - begin) + " into it (" + text + ")";
            }
            return text;
        };
        for (uint32_t i = begin; i < end; ++i) {
            uint64_t got = 0;
            std::memcpy(&got, outKeys + size_t(i) * kb, kb);
            const uint64_t want = input.key(permutation[i]);
            if (got != want) {
                v.ok = false;
                v.detail = where(i) + ": key " + std::to_string(got) + ", expected " + std::to_string(want) +
                           " (input index " + std::to_string(permutation[i]) + ")";
                return v;
            }
            if (vb == 0 || outValues == nullptr) continue;
            uint64_t gotValue = 0;
            std::memcpy(&gotValue, outValues + size_t(i) * vb, vb);
            uint64_t wantValue = input.value(permutation[i]);
            if (input.valueType == VKSORT_VALUE_TYPE_INDEX) {
                wantValue = permutation[i] - (indexBase == IndexBase::Segment ? begin : 0u);
            }
            if (gotValue != wantValue) {
                v.ok = false;
                v.detail = where(i) + ": value " + std::to_string(gotValue) + ", expected " +
                           std::to_string(wantValue) + " (order, permutation or stability broken)";
                return v;
            }
        }
    }
    return v;
}

} // namespace segmented
