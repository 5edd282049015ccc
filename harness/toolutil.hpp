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

// The command line, one option at a time: `while (args.next()) { if (args.option() == "--x") ...
// args.value() ... }`.
class Args {
public:
    Args(int argc, char** argv) : argc_(argc), argv_(argv) {}
    bool next() {
        if (++at_ >= argc_) return false;
        option_ = argv_[at_];
        return true;
    }
    const std::string& option() const { return option_; }
    // The option's value, the next argument; without one the program ends with status 2.
    std::string value() {
        if (at_ + 1 >= argc_) {
            std::fprintf(stderr, "%s needs a value\n", option_.c_str());
            std::exit(2);
        }
        return argv_[++at_];
    }

private:
    int argc_;
    char** argv_;
    int at_ = 0;
    std::string option_;
};

// BEGIN:END of --bits: the bit range [BEGIN, END), END at most 64 and above BEGIN, or 0:0 for
// all bits.
inline bool parseBits(const std::string& text, uint32_t* beginBit, uint32_t* endBit) {
    unsigned b = 0, e = 0;
    char tail = 0;
    if (std::sscanf(text.c_str(), "%u:%u%c", &b, &e, &tail) != 2 || e > 64 || (e != 0 && b >= e)) return false;
    *beginBit = b;
    *endBit = e;
    return true;
}

// The options of a benchmark sweep (counts x key types x value kinds, timed back to back after a
// warm-up), which sort-test --bench and cub-bench both take.
struct SweepOptions {
    std::vector<uint32_t> counts;            // --counts (none given: defaultCounts())
    std::vector<VksortKeyType> keyTypes;     // --keys
    std::vector<VksortValueType> valueTypes; // --values
    uint32_t reps = 20;                      // --reps: timed sorts per point (at least 10)
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

enum class Parsed { NotMine, Ok, Invalid };

// Reads args.option() (and its value) into `o` when it is one of the sweep's options.
inline Parsed parseSweepOption(Args& args, SweepOptions* o) {
    const std::string& a = args.option();
    uint64_t v = 0;
    if (a == "--counts") {
        for (const std::string& c : split(args.value())) {
            if (!parseUnsigned(c, UINT32_MAX, &v) || v == 0) return Parsed::Invalid;
            o->counts.push_back(uint32_t(v));
        }
    } else if (a == "--keys") {
        for (const std::string& k : split(args.value())) {
            VksortKeyType t;
            if (!hostdata::parseKeyType(k, &t)) return Parsed::Invalid;
            o->keyTypes.push_back(t);
        }
    } else if (a == "--values") {
        for (const std::string& k : split(args.value())) {
            VksortValueType t;
            if (!hostdata::parseValueType(k, &t)) return Parsed::Invalid;
            o->valueTypes.push_back(t);
        }
    } else if (a == "--reps") {
        if (!parseUnsigned(args.value(), 1u << 16, &v) || v < 1) return Parsed::Invalid;
        o->reps = uint32_t(v);
    } else if (a == "--warmup") {
        std::string s = args.value();
        char* end = nullptr;
        o->warmup = std::strtod(s.c_str(), &end);
        if (end == s.c_str() || *end != '\0' || o->warmup < 0) return Parsed::Invalid;
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
// Sets a flag option (one without a value): Parsed::Ok.
inline Parsed setFlag(bool* flag) {
    *flag = true;
    return Parsed::Ok;
}

// The whole command line: the sweep's options into `sweep`, the tool's own through `own` (which
// returns Parsed::NotMine for an option it does not take), and --help or -h, which calls `usage`
// and exits with status 0. False for an invalid value or an unknown option (named on stderr).
inline bool parseCommandLine(int argc, char** argv, SweepOptions* sweep, const std::function<Parsed(Args&)>& own,
                             void (*usage)()) {
    Args args(argc, argv);
    while (args.next()) {
        Parsed parsed = parseSweepOption(args, sweep);
        if (parsed == Parsed::NotMine) parsed = own(args);
        if (parsed == Parsed::NotMine && (args.option() == "--help" || args.option() == "-h")) {
            usage();
            std::exit(0);
        }
        if (parsed == Parsed::NotMine) std::fprintf(stderr, "unknown option %s\n", args.option().c_str());
        if (parsed != Parsed::Ok) return false;
    }
    return true;
}

// After parsing: the default counts when none were given, sorted and unique (each configuration's
// buffers are sized for its largest count); the given key and value type when none were listed;
// at least 10 repetitions (fewer make the median a coin toss between neighbours).
inline void finishSweep(SweepOptions* o, VksortKeyType key, VksortValueType value) {
    if (o->counts.empty()) o->counts = defaultCounts();
    std::sort(o->counts.begin(), o->counts.end());
    o->counts.erase(std::unique(o->counts.begin(), o->counts.end()), o->counts.end());
    if (o->keyTypes.empty()) o->keyTypes.push_back(key);
    if (o->valueTypes.empty()) o->valueTypes.push_back(value);
    o->reps = std::max(o->reps, 10u);
}

struct Stats {
    double median = 0, min = 0, max = 0;
};

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
