// SPDX-License-Identifier: MIT
// vksort GLSL library: which passes run, and which digit each reorder sorts. Included after
// common.glsl by the tile counts, the scan step and the reorder.
//
// Every recorded pass runs, unless the variant is built with VKSORT_SKIP_PASSES 1 (the "_skip"
// kernels of sorters created with VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT): then the GPU
// leaves out the passes whose digit every key shares (vksort_config.h, "Passes whose digit never
// varies"). The tile counts gather each tile's varying bits; the deciding step (the pipeline
// specialized with DECIDES: the first scan step, or the first reorder where it scans inline or
// the count is read on the GPU) ORs them and publishes which passes run; every later step reads
// that through the uniform buffer. The kernels call the functions below in every variant: without
// the option they gather nothing and pass the recorded pass through.

#ifndef VKSORT_SKIP_PASSES
#define VKSORT_SKIP_PASSES 0
#endif
const bool SKIP_PASSES = VKSORT_SKIP_PASSES != 0;

// Where the reorder tests whether it sorts the last pass, when every recorded pass runs: before
// the keys' loads (true) or after the ranking (the tuning row's, per format: it moves what the
// compiler keeps live across the ranking).
layout(constant_id = kSpecLastPassEarly) const bool LAST_PASS_EARLY = false;

#if VKSORT_SKIP_PASSES
// The passes that run (the pass arguments' first kPassWords words; vksort_config.h), read-only.
layout(set = 0, binding = kBindingPasses, std140) uniform Passes { uvec4 passWords[kPassWords / 4u]; };
uint passWord(uint word) { return passWords[word / 4u][word % 4u]; }
// The passes that run and the later passes' launches (vksort_config.h), written by the deciding
// step: its set binds them, the others a spare range.
layout(set = 0, binding = kBindingPassArgs, std430) restrict writeonly buffer PassArgs { uint passArgs[]; };
// The pipeline of a step that may decide which passes run; the other pipelines hold none of
// that code.
layout(constant_id = kSpecVariantPipeline) const bool DECIDES = false;

// The ranges' varying bits again, coherent: the last workgroup of a scan step reads what the
// others wrote in the same dispatch (scan.comp).
layout(set = 0, binding = kBindingTables, std430) coherent buffer RangeVarying { uint rangeVaryingWords[]; };

// Words of tile `tile`'s varying bits, and of range `range`'s (see vksort_config.h).
uint varyingEntry(uint tile) { return vksortVaryingOffset(pc.rowStride) + 2u * tile; }
uint rangeVaryingEntry(uint range) { return kRangeVaryingOffset + 2u * range; }

// The varying bits a workgroup gathers (the tile counts its keys', the deciding step every
// tile's): clearVarying() zeroes them (publish with a barrier), every invocation may then
// addVarying() its bits (a subgroup OR, one atomic per word per subgroup), and after a barrier
// gatheredVarying() reads the OR of all.
shared uint s_varying[2];
void clearVarying() {
    if (gl_LocalInvocationIndex < 2u) s_varying[gl_LocalInvocationIndex] = 0u;
}
void addVarying(uvec2 bits) {
    bits = subgroupOr(bits);
    if (subgroupElect()) {
        if (bits.x != 0u) atomicOr(s_varying[0], bits.x);
        if (bits.y != 0u) atomicOr(s_varying[1], bits.y);
    }
}
uvec2 gatheredVarying() { return uvec2(s_varying[0], s_varying[1]); }

// This invocation's share of the OR of tiles [begin, end)'s varying bits (the tile counts'
// words), the tiles striped over the workgroup.
uvec2 tilesVarying(uint begin, uint end) {
    uvec2 bits = uvec2(0u);
    for (uint tile = begin + gl_LocalInvocationIndex; tile < end; tile += gl_WorkGroupSize.x) {
        bits |= uvec2(tables[varyingEntry(tile)], tables[varyingEntry(tile) + 1u]);
    }
    return bits;
}

// The OR of tiles [begin, end)'s varying bits. Every invocation calls it (it has barriers).
uvec2 reduceVarying(uint begin, uint end) {
    clearVarying();
    uvec2 bits = tilesVarying(begin, end);
    barrier(); // s_varying is zeroed
    addVarying(bits);
    barrier();
    return gatheredVarying();
}

// A key in sort order as two words (low, high): the form of the varying bits.
uvec2 orderedWords(OrderedKey ordered) {
#if VKSORT_KEY_WORDS == 1
    return uvec2(ordered, 0u);
#else
    return ordered;
#endif
}

// The passes that run for keys whose bits in sort order vary in `bits`, over the bits this sort
// orders (pc.shift, the first pass's, to pc.endBit): a mask, bit p for pass p.
uint runningPasses(uvec2 bits) { return vksortRunningPasses(bits.x, bits.y, pc.shift, pc.endBit); }

// Writes them for the later steps: how many reorders run and the digit of each, every word of the
// uniform buffer's range, and the launch of each later pass (vksort_config.h): its tiles for a
// pass that runs, no workgroup for one left out; its scan step's workgroups where `scanSteps`
// (the tiles are too many to scan inline). One word per invocation; every invocation of the
// writing workgroup calls it.
void publishRunningPasses(uint running, bool scanSteps) {
    uint count = vksortRunningPassCount(running);
    for (uint word = gl_LocalInvocationIndex; word < kPassWords; word += gl_WorkGroupSize.x) {
        if (word < kMaxPasses) passArgs[kPassShift + word] = word < count ? vksortRunningPassShift(running, pc.shift, word) : pc.shift;
        else passArgs[word] = word == kPassCount ? count : 0u;
    }
    uint tiles = tileCount();
    uvec3 reorderGrid = uvec3(vksortGridWidth(tiles, pc.dispatchWidth), vksortGridRows(tiles, pc.dispatchWidth), 1u);
    uvec3 scanGrid = uvec3(scanSteps ? scanWorkgroups(tiles) : 0u, 1u, 1u);
    for (uint word = gl_LocalInvocationIndex; word < kPassLaunchWords; word += gl_WorkGroupSize.x) {
        uint pass = word / kPassArgsStride, part = word % kPassArgsStride;
        uvec3 grid = part < kPassScanArgs ? reorderGrid : scanGrid;
        if (pass >= count) grid.x = 0u;
        if (part % kPassScanArgs < 3u) passArgs[kPassLaunchOffset + word] = grid[part % kPassScanArgs];
    }
}
#else
const bool DECIDES = false;
#endif

// ---- The tile counts: each tile's varying bits ----------------------------------------------
// Every key in sort order XOR the input's first key, ORed over the tile (in registers, then over
// the workgroup): the bits in which some key of the tile differs from that key.

// The key every key is compared with (0 without the option: nothing is gathered).
OrderedKey varyingReference(DigitMap map) { return SKIP_PASSES ? orderedKey(keysIn[0], map) : OrderedKey(0u); }
void noteVarying(inout OrderedKey differs, OrderedKey ordered, OrderedKey reference) {
    if (SKIP_PASSES) differs |= ordered ^ reference;
}
// Zeroes the workgroup's bits; published by the next barrier.
void beginTileVarying() {
#if VKSORT_SKIP_PASSES
    clearVarying();
#endif
}
// Adds this invocation's bits into the workgroup's.
void addTileVarying(OrderedKey differs) {
#if VKSORT_SKIP_PASSES
    addVarying(orderedWords(differs));
#endif
}
// After a barrier: the invocation whose index is `word` (0 or 1) writes that word of the tile's bits.
void publishTileVarying(uint tile, uint word) {
#if VKSORT_SKIP_PASSES
    if (word < 2u) tables[varyingEntry(tile) + word] = gatheredVarying()[word];
#endif
}

// ---- The scan step: the first one decides ----------------------------------------------------

// A pass that does not run scans nothing. Direct sorts do not launch its scan step; an indirect
// sort's launch does not know.
bool scanLeftOut() {
#if VKSORT_SKIP_PASSES
    return (pc.flags & kFlagIndirect) != 0u && pc.pass != 0u && pc.pass >= passWord(kPassCount);
#else
    return false;
#endif
}
// One range: workgroup 0 ORs every tile's bits and publishes which passes run.
void decideOverTiles(uint tiles) {
#if VKSORT_SKIP_PASSES
    if (DECIDES && gl_WorkGroupID.x == 0u) publishRunningPasses(runningPasses(reduceVarying(0u, tiles)), true);
#endif
}
// Several ranges: each range's workgroup ORs its tiles' bits (every invocation calls it)...
uvec2 rangeVarying(uint begin, uint end) {
#if VKSORT_SKIP_PASSES
    if (DECIDES) return reduceVarying(begin, end);
#endif
    return uvec2(0u);
}
// ...writes them beside the range's totals (one invocation)...
void publishRangeVarying(uint range, uvec2 bits) {
#if VKSORT_SKIP_PASSES
    if (DECIDES) {
        rangeVaryingWords[rangeVaryingEntry(range)] = bits.x;
        rangeVaryingWords[rangeVaryingEntry(range) + 1u] = bits.y;
    }
#endif
}
// ...and the last workgroup to finish ORs the ranges' bits, an invocation per range (at most
// kScanRanges), and publishes which passes run. Every invocation of it calls this.
void decideOverRanges(uint ranges) {
#if VKSORT_SKIP_PASSES
    if (DECIDES) {
        clearVarying();
        barrier();
        uint invocation = gl_LocalInvocationIndex;
        addVarying(invocation < ranges ? uvec2(rangeVaryingWords[rangeVaryingEntry(invocation)],
                                               rangeVaryingWords[rangeVaryingEntry(invocation) + 1u])
                                       : uvec2(0u));
        barrier();
        publishRunningPasses(runningPasses(gatheredVarying()), true);
    }
#endif
}

// ---- The reorder: which pass it sorts ---------------------------------------------------------

struct PassChoice {
    bool runs;      // false: every key has the same digit in the passes left, nothing to do
    bool decided;   // false: this reorder decides after its ranking (decidePass)
    bool last;      // the last pass that runs: map the keys back, count nothing for the next
    uint shift;     // the lowest key bit of this pass's digit
    uint nextShift; // the same for the next pass that runs
    uint running;   // how many passes run (with the option)
};

// Before the keys' loads: the recorded pass (pc.shift), or the decision's pass for reorder
// pc.pass. `inlineScan`: this reorder sums the counts itself, so a deciding one decides after
// ranking, as it sees every tile's bits (gatherDecision).
PassChoice choosePass(bool inlineScan) {
    PassChoice pass;
    pass.runs = true;
    pass.decided = true;
    pass.shift = pc.shift;
    pass.nextShift = pc.shift + kDigitBits;
    pass.running = 0u;
    pass.last = LAST_PASS_EARLY && pc.shift + kDigitBits >= pc.endBit;
#if VKSORT_SKIP_PASSES
    pass.decided = !DECIDES || !inlineScan;
    if (pass.decided) {
        pass.running = passWord(kPassCount);
        pass.runs = pc.pass < pass.running;
        if (pc.pass != 0u) pass.shift = passWord(kPassShift + pc.pass);
        pass.nextShift = passWord(kPassShift + min(pc.pass + 1u, kMaxPasses - 1u));
    }
#endif
    return pass;
}

// Inside the deciding reorder's inline scan: zeroes the bits (before a barrier), then adds
// every tile's (after it). Nothing in the other reorders.
void beginDecision() {
#if VKSORT_SKIP_PASSES
    if (DECIDES) clearVarying();
#endif
}
void gatherDecision(uint tiles) {
#if VKSORT_SKIP_PASSES
    if (DECIDES) addVarying(tilesVarying(0u, tiles));
#endif
}

// After the ranking (whose barriers publish the gathered bits): the deciding reorder decides, and
// tile 0 publishes the decision; then whether this is the last pass that runs.
void decidePass(inout PassChoice pass, uint tile) {
#if VKSORT_SKIP_PASSES
    if (!pass.decided) {
        uint passes = runningPasses(gatheredVarying());
        pass.running = vksortRunningPassCount(passes);
        pass.nextShift = vksortRunningPassShift(passes, pc.shift, 1u);
        if (tile == 0u) publishRunningPasses(passes, false);
    }
    pass.last = pc.pass + 1u >= pass.running;
#else
    if (!LAST_PASS_EARLY) pass.last = pc.shift + kDigitBits >= pc.endBit;
#endif
}
