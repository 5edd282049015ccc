// SPDX-License-Identifier: MIT
// What sort-test and cub-bench share besides their data (hostdata): the command line (numbers,
// lists, the options of a benchmark sweep and its default counts) and the statistics of timed
// runs, so both tools read their options and report a median the same way. Header-only, on the
// standard library and hostdata's header, since nvcc compiles cub-bench.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "hostdata.hpp"

namespace toolutil {

// A decimal or 0x number, or 2^N; false when malformed or above `max`.
inline bool parseUnsigned(const std::string& text, uint64_t max, uint64_t* out) {
    uint64_t v = 0;
    size_t caret = text.find('^');
    char* end = nullptr;
    if (caret != std::string::npos) { // 2^N
        if (text.substr(0, caret) != "2") return false;
        unsigned long e = std::strtoul(text.c_str() + caret + 1, &end, 10);
        if (end == text.c_str() + caret + 1 || *end != '\0' || e > 63) return false;
        v = uint64_t(1) << e;
    } else {
        v = std::strtoull(text.c_str(), &end, 0);
        if (end == text.c_str() || *end != '\0') return false;
    }
    if (v > max) return false;
    *out = v;
    return true;
}

// `value` rounded up to a multiple of `alignment` (not 0).
constexpr uint64_t alignUp(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

// The non-empty items of a comma-separated list.
inline std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= s.size()) {
        size_t comma = s.find(',', start);
        if (comma == std::string::npos) comma = s.size();
        if (comma > start) out.push_back(s.substr(start, comma - start));
        start = comma + 1;
    }
    return out;
}

// What an option takes, for error messages: "" for an option the tool does not know.
using TakesFn = std::function<std::string(const std::string& option)>;

// The command line, one option at a time: `while (args.next()) { if (args.option() == "--x") ...
// args.value() ... }`. `tool` names the program in messages; `takes` says what each option takes.
class Args {
public:
    Args(int argc, char** argv, const char* tool = "", TakesFn takes = {})
        : argc_(argc), argv_(argv), tool_(tool), takes_(std::move(takes)) {}
    bool next() {
        if (++at_ >= argc_) return false;
        option_ = argv_[at_];
        value_.clear();
        reason_.clear();
        return true;
    }
    const std::string& option() const { return option_; }
    // The option's value, the next argument; without one the program says what the option takes
    // and ends with status 2.
    std::string value() {
        if (at_ + 1 >= argc_) {
            std::fprintf(stderr, "%s: %s needs a value\n", tool_, option_.c_str());
            printTakes();
            std::exit(2);
        }
        value_ = argv_[++at_];
        return value_;
    }
    // The value value() returned last for this option ("" for a flag).
    const std::string& lastValue() const { return value_; }
    // Why the value is wrong, more precisely than what the option takes (printed before that).
    void setReason(const std::string& reason) { reason_ = reason; }
    const std::string& reason() const { return reason_; }
    const char* tool() const { return tool_; }
    // "TOOL: OPTION takes ..." on stderr, when the option is known.
    void printTakes() const {
        const std::string takes = takes_ ? takes_(option_) : std::string();
        if (!takes.empty()) std::fprintf(stderr, "%s: %s takes %s\n", tool_, option_.c_str(), takes.c_str());
    }

private:
    int argc_;
    char** argv_;
    const char* tool_;
    TakesFn takes_;
    int at_ = 0;
    std::string option_, value_, reason_;
};

// BEGIN:END of --bits: the bit range [BEGIN, END), END at most 64 and above BEGIN, or END 0 for
// "to the key's width" (0:0 is all bits). False with the reason in `why`.
inline bool parseBits(const std::string& text, uint32_t* beginBit, uint32_t* endBit, std::string* why = nullptr) {
    unsigned b = 0, e = 0;
    char tail = 0;
    auto refuse = [&](const std::string& reason) {
        if (why != nullptr) *why = reason;
        return false;
    };
    if (text.find_first_not_of("0123456789:") != std::string::npos ||
        std::sscanf(text.c_str(), "%u:%u%c", &b, &e, &tail) != 2) {
        return refuse("not BEGIN:END");
    }
    if (e > 64) return refuse("END " + std::to_string(e) + " is past the widest key (64 bits)");
    if (e != 0 && b >= e) return refuse("END " + std::to_string(e) + " is not above BEGIN " + std::to_string(b));
    if (b >= 64) return refuse("BEGIN " + std::to_string(b) + " is past the widest key (64 bits)");
    *beginBit = b;
    *endBit = e;
    return true;
}

// What --bits takes, for messages.
inline const char* bitsTakes() {
    return "BEGIN:END, sorting by key bits [BEGIN, END) only: BEGIN < END <= the key's width (32 or "
           "64); END 0 means the key's width, and 0:0 (the default) all bits";
}

// Whether [beginBit, endBit) (endBit 0: the key's width) lies within keys of every listed type.
// False with a message naming --bits and the key's width.
inline bool bitsFit(uint32_t beginBit, uint32_t endBit, const std::vector<VksortKeyType>& keyTypes, std::string* why) {
    for (VksortKeyType k : keyTypes) {
        const uint32_t width = hostdata::keyBits(k);
        if (endBit <= width && beginBit < (endBit == 0 ? width : endBit)) continue;
        *why = "--bits " + std::to_string(beginBit) + ":" + std::to_string(endBit) + " is outside " +
               hostdata::toString(k) + " keys, which have " + std::to_string(width) + " bits (END at most " +
               std::to_string(width) + ", BEGIN below " + std::to_string(width) + ")";
        return false;
    }
    return true;
}

// Whether every listed key type can hold the distribution (hostdata::distributionFits). False with
// a message naming --dist.
inline bool distributionFits(const hostdata::Distribution& d, const std::vector<VksortKeyType>& keyTypes,
                             std::string* why) {
    for (VksortKeyType k : keyTypes) {
        std::string reason;
        if (hostdata::distributionFits(d, k, &reason)) continue;
        *why = "--dist " + reason;
        return false;
    }
    return true;
}

// The options of a benchmark sweep (counts x key types x value kinds, timed back to back after a
// warm-up), which sort-test --bench and cub-bench both take.
struct SweepOptions {
    std::vector<uint32_t> counts;            // --counts (none given: defaultCounts())
    std::vector<VksortKeyType> keyTypes;     // --keys
    std::vector<VksortValueType> valueTypes; // --values
    uint32_t reps = 20;                      // --reps: timed sorts per point (at least kMinReps)
    double warmup = 2.0;                     // --warmup: seconds of untimed sorts per point
    uint32_t verifyMax = 1u << 22;           // --verify-max: verify one sort per point up to this count
    std::string jsonPath;                    // --json: also write the results there ('-': stdout)
};

// The sweep's counts when --counts is not given: 2^10 to 2^28 in steps of 4x, and three odd sizes.
inline std::vector<uint32_t> defaultCounts() {
    std::vector<uint32_t> counts;
    for (uint32_t e = 10; e <= 28; e += 2) counts.push_back(1u << e);
    for (uint32_t odd : {1000003u, 10000019u, 100000007u}) counts.push_back(odd);
    return counts;
}

// Fewer timed sorts per point make the median a coin toss between neighbours.
constexpr uint32_t kMinReps = 10;

enum class Parsed { NotMine, Ok, Invalid };

// What the sweep's options take, for messages; "" for any other option.
inline std::string sweepTakes(const std::string& option) {
    if (option == "--counts") {
        return "a comma-separated list of key counts, each 1 to 4294967295 (decimal, 0x hex or 2^N), e.g. "
               "2^10,2^20,1000003";
    }
    if (option == "--keys") return "a comma-separated list of key types: u32, i32, f32, u64, i64, f64";
    if (option == "--values") return "a comma-separated list of value kinds: none, u32, u64, index";
    if (option == "--reps") {
        return "the timed sorts per point, " + std::to_string(kMinReps) +
               " to 65536 (fewer make the median a coin toss between neighbours)";
    }
    if (option == "--warmup") return "the seconds of untimed sorts before each point, 0 or more (e.g. 0.5)";
    if (option == "--verify-max") {
        return "a key count (decimal, 0x hex or 2^N): points of at most that many keys are verified (0: none)";
    }
    if (option == "--json") return "a file name, or - for stdout";
    return "";
}

// Reads args.option() (and its value) into `o` when it is one of the sweep's options.
inline Parsed parseSweepOption(Args& args, SweepOptions* o) {
    const std::string& a = args.option();
    uint64_t v = 0;
    if (a == "--counts") {
        const std::vector<std::string> items = split(args.value());
        if (items.empty()) return Parsed::Invalid;
        for (const std::string& c : items) {
            if (!parseUnsigned(c, UINT32_MAX, &v) || v == 0) {
                args.setReason(c + " is not a count from 1 to 4294967295");
                return Parsed::Invalid;
            }
            o->counts.push_back(uint32_t(v));
        }
    } else if (a == "--keys") {
        const std::vector<std::string> items = split(args.value());
        if (items.empty()) return Parsed::Invalid;
        for (const std::string& k : items) {
            VksortKeyType t;
            if (!hostdata::parseKeyType(k, &t)) {
                args.setReason("no key type " + k);
                return Parsed::Invalid;
            }
            o->keyTypes.push_back(t);
        }
    } else if (a == "--values") {
        const std::vector<std::string> items = split(args.value());
        if (items.empty()) return Parsed::Invalid;
        for (const std::string& k : items) {
            VksortValueType t;
            if (!hostdata::parseValueType(k, &t)) {
                args.setReason("no value kind " + k);
                return Parsed::Invalid;
            }
            o->valueTypes.push_back(t);
        }
    } else if (a == "--reps") {
        if (!parseUnsigned(args.value(), 1u << 16, &v)) return Parsed::Invalid;
        if (v < kMinReps) {
            args.setReason("below the minimum of " + std::to_string(kMinReps));
            return Parsed::Invalid;
        }
        o->reps = uint32_t(v);
    } else if (a == "--warmup") {
        std::string s = args.value();
        char* end = nullptr;
        o->warmup = std::strtod(s.c_str(), &end);
        if (end == s.c_str() || *end != '\0' || !(o->warmup >= 0) || o->warmup > 3600) return Parsed::Invalid;
    } else if (a == "--verify-max") {
        if (!parseUnsigned(args.value(), UINT32_MAX, &v)) return Parsed::Invalid;
        o->verifyMax = uint32_t(v);
    } else if (a == "--json") {
        o->jsonPath = args.value();
    } else {
        return Parsed::NotMine;
    }
    return Parsed::Ok;
}

// Parsed::Ok when `valid`, else Parsed::Invalid: for a tool's own options.
inline Parsed validIf(bool valid) { return valid ? Parsed::Ok : Parsed::Invalid; }
// Parsed::Ok when `valid`, else Parsed::Invalid with `reason` (when not empty) for the message.
inline Parsed validIf(bool valid, Args& args, const std::string& reason) {
    if (!valid && !reason.empty()) args.setReason(reason);
    return validIf(valid);
}
// Sets a flag option (one without a value): Parsed::Ok.
inline Parsed setFlag(bool* flag) {
    *flag = true;
    return Parsed::Ok;
}

// The whole command line: the sweep's options into `sweep`, the tool's own through `own` (which
// returns Parsed::NotMine for an option it does not take), and --help or -h, which calls `usage`
// and exits with status 0. `takes` says what the tool's own options take. A bad value or an
// unknown option is named on stderr in a line or two (what was wrong, what the option takes)
// and ends the program with status 2, as a missing value does.
inline void parseCommandLine(const char* tool, int argc, char** argv, SweepOptions* sweep,
                             const std::function<Parsed(Args&)>& own, void (*usage)(), const TakesFn& takes) {
    Args args(argc, argv, tool, [&](const std::string& option) {
        std::string t = sweepTakes(option);
        return t.empty() ? takes(option) : t;
    });
    while (args.next()) {
        Parsed parsed = parseSweepOption(args, sweep);
        if (parsed == Parsed::NotMine) parsed = own(args);
        if (parsed == Parsed::NotMine && (args.option() == "--help" || args.option() == "-h")) {
            usage();
            std::exit(0);
        }
        if (parsed == Parsed::Ok) continue;
        if (parsed == Parsed::NotMine) {
            std::fprintf(stderr, "%s: unknown %s %s (%s --help lists every option)\n", tool,
                         args.option().rfind("-", 0) == 0 ? "option" : "argument", args.option().c_str(), tool);
        } else {
            std::fprintf(stderr, "%s: bad value for %s: '%s'%s%s\n", tool, args.option().c_str(),
                         args.lastValue().c_str(), args.reason().empty() ? "" : ": ", args.reason().c_str());
            args.printTakes();
        }
        std::exit(2);
    }
}

// After parsing: the default counts when none were given, sorted and unique (each configuration's
// buffers are sized for its largest count); the given key and value type when none were listed.
inline void finishSweep(SweepOptions* o, VksortKeyType key, VksortValueType value) {
    if (o->counts.empty()) o->counts = defaultCounts();
    std::sort(o->counts.begin(), o->counts.end());
    o->counts.erase(std::unique(o->counts.begin(), o->counts.end()), o->counts.end());
    if (o->keyTypes.empty()) o->keyTypes.push_back(key);
    if (o->valueTypes.empty()) o->valueTypes.push_back(value);
}

// A rate with three significant digits and an SI prefix before `unit` ("20.2 Gkeys/s" on a GPU,
// "335 kkeys/s" on lavapipe): a fixed unit printed 0.000 Gkeys/s on slow devices.
inline std::string siRate(double perSecond, const char* unit) {
    static const char* const prefixes[] = {"", "k", "M", "G", "T"};
    size_t p = 0;
    while (p + 1 < sizeof prefixes / sizeof prefixes[0] && perSecond >= 999.5) {
        perSecond /= 1000;
        ++p;
    }
    char text[48];
    const int decimals = perSecond < 9.995 ? 2 : perSecond < 99.95 ? 1 : 0;
    std::snprintf(text, sizeof text, "%.*f %s%s", decimals, perSecond, prefixes[p], unit);
    return text;
}

struct Stats {
    double median = 0, min = 0, max = 0;
};

// A string as a JSON string's contents: quotes and backslashes escaped, control characters
// (which no name the tools write should hold) as spaces.
inline std::string jsonEscape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += c;
        else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
        else out += c;
    }
    return out;
}

// The median is the mean of the two middle samples for an even count.
inline Stats statsOf(std::vector<double> values) {
    Stats s;
    if (values.empty()) return s;
    std::sort(values.begin(), values.end());
    s.min = values.front();
    s.max = values.back();
    size_t n = values.size();
    s.median = n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
    return s;
}

} // namespace toolutil
