// SPDX-License-Identifier: MIT
// vksort GLSL library: a tile of keys stably ranked by digit, and moved, in shared memory.
// Included after common.glsl and tile.glsl by the reorders and the single-workgroup sort.

// Digit counters per group of subgroups: a group's 16 counters are consecutive words
// (counterOf), so a subgroup that reads or advances the counters of its keys' digits hits 16
// different banks; and rankTile(false) scans them digit-major (digit, then group: see
// scanHistogram), so that afterwards each is where that group's keys of that digit start in the
// tile (rankTile(true) leaves them unscanned). A group is one subgroup unless the device launched
// more than MAX_SUBGROUPS (see counterGroups()).
shared uint s_digitCounters[kRadix * MAX_SUBGROUPS];

// Subgroups sharing one set of counters: 1 unless the launch has more subgroups than the counters
// were sized for. Consecutive subgroups share, so a group's keys stay contiguous in input order.
uint subgroupsPerGroup() { return (gl_NumSubgroups + MAX_SUBGROUPS - 1u) / MAX_SUBGROUPS; }
uint counterGroups() {
    uint share = subgroupsPerGroup();
    return (gl_NumSubgroups + share - 1u) / share;
}
uint counterOf(uint digit, uint group) { return group * kRadix + digit; }
// The counter at `position` in digit-major order (position = digit * groups + group).
uint counterAt(uint position, uint groups) { return counterOf(position / groups, position % groups); }

// Per key of this invocation: the digit in bits 16 and up, and (after rankTile) the key's sorted
// position in the tile in bits 0-15 (tiles hold at most 65536 keys, which the host checks).
// One word per key instead of two keeps the register count, and so the occupancy, up.
uint g_digitRank[KEYS_PER_THREAD];

uint rankOf(uint j) { return g_digitRank[j] & 0xFFFFu; }

// Starts a ranking: each key's digit, and the largest digit for slots from `valid` on (past the
// input). Those are last in input order, so the stable rank puts them after every real key, at
// sorted slots >= valid, which no pass writes.
void setDigits(Key keys[KEYS_PER_THREAD], uint valid, TileLayout place, DigitMap map) {
    if (wholeTileCopy(valid)) { // (tile.glsl)
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) g_digitRank[j] = digitOf(keys[j], map) << 16u;
        return;
    }
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        g_digitRank[j] = (tileSlot(place, j) < valid ? digitOf(keys[j], map) : map.mask) << 16u;
    }
}

// The sum of the counters at digit-major positions [begin, end).
uint sumCounters(uint begin, uint end, uint groups) {
    uint sum = 0u;
    for (uint i = begin; i < end; ++i) sum += s_digitCounters[counterAt(i, groups)];
    return sum;
}
// Replaces the counters at positions [begin, end) by their exclusive prefix, from `running`.
void placeCounters(uint begin, uint end, uint groups, uint running) {
    for (uint i = begin; i < end; ++i) {
        uint counter = counterAt(i, groups);
        uint count = s_digitCounters[counter];
        s_digitCounters[counter] = running;
        running += count;
    }
}

// Exclusive scan, in place and in digit-major order, of the counters of `groups` groups (all of
// them written before a barrier): n = kRadix * groups entries. With full subgroups of w lanes and
// n <= 4w (128 entries for 32 lanes), subgroup 0 alone scans them, four per lane, and one barrier
// publishes the result. Otherwise each invocation sums a short run of consecutive entries and the
// runs' sums are scanned across the workgroup.
void scanHistogram(uint groups) {
    uint n = kRadix * groups;
    if (denseSubgroups() && n <= 4u * gl_SubgroupSize) {
        if (gl_SubgroupID == 0u) {
            uint begin = min(gl_SubgroupInvocationID * 4u, n);
            uint end = min(begin + 4u, n);
            placeCounters(begin, end, groups, subgroupExclusiveAdd(sumCounters(begin, end, groups)));
        }
        barrier();
        return;
    }
    uint perInvocation = (n + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
    uint begin = min(gl_LocalInvocationIndex * perInvocation, n);
    uint end = min(begin + perInvocation, n);
    uint total;
    placeCounters(begin, end, groups, workgroupExclusiveScan(sumCounters(begin, end, groups), total));
    barrier();
}

#if VKSORT_SHUFFLE
// rankKeys for a full subgroup of at least 16 lanes that shares its counters with no other
// (devices with subgroup shuffles only: the *_shuffle variants). Lane l keeps the running count of
// digit l in a register and adds the lanes of digit l at each step; a key's rank is lane digit's
// count, fetched with a shuffle, plus its peers before it. No shared memory and no subgroup
// barrier per key: the only dependency from step to step is one add. The counts go to the
// group's counters at the end, where the general path keeps them throughout.
void rankKeysInRegisters(uint group) {
    uint lane = gl_SubgroupInvocationID;
    uint running = 0u;
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint digit = g_digitRank[j] >> 16u;
        uvec4 peers = uvec4(0xFFFFFFFFu), laneDigitPeers = uvec4(0xFFFFFFFFu);
        [[unroll]] for (uint b = 0u; b < kDigitBits; ++b) {
            uvec4 ballot = subgroupBallot(((digit >> b) & 1u) != 0u);
            peers &= ((digit >> b) & 1u) != 0u ? ballot : ~ballot;
            laneDigitPeers &= ((lane >> b) & 1u) != 0u ? ballot : ~ballot;
        }
        uint seen = subgroupShuffle(running, digit);
        running += lane < kRadix ? subgroupBallotBitCount(laneDigitPeers) : 0u;
        g_digitRank[j] += seen + subgroupBallotExclusiveBitCount(peers);
    }
    if (lane < kRadix) s_digitCounters[counterOf(lane, group)] = running;
}
#endif

// One subgroup's part of rankTile: every key of this invocation gets its rank among the keys of
// its digit seen so far by its group of subgroups, which advances the group's counters.
void rankKeys(uint groups, uint group) {
#if VKSORT_SHUFFLE
    // Full subgroups of 16 lanes or more: every lane active, so lane d exists for each digit d.
    if (groups == gl_NumSubgroups && gl_SubgroupSize >= kRadix &&
        subgroupBallotBitCount(subgroupBallot(true)) == gl_SubgroupSize) {
        rankKeysInRegisters(group);
        return;
    }
#endif
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint digit = g_digitRank[j] >> 16u;
        uvec4 peers = matchDigit(digit);
        uint before = subgroupBallotExclusiveBitCount(peers);
        uint count = subgroupBallotBitCount(peers);
        uint counter = counterOf(digit, group);
        uint seen = s_digitCounters[counter];
        // subgroupBarrier() orders shared memory too (GL_KHR_shader_subgroup): every peer reads
        // the counter before the last peer advances it, and the next step sees the new value.
        subgroupBarrier();
        if (before + 1u == count) s_digitCounters[counter] = seen + count;
        subgroupBarrier();
        g_digitRank[j] += seen + before;
    }
}

#if VKSORT_SHUFFLE
// The end of rankTile(true) once every subgroup ranked in registers with counters of its own: lane
// d sums digit d's counts over the groups, the lanes scan the totals, and each key gets its group's
// start of its digit by shuffle instead of a shared-memory read.
void placeRanksInRegisters(uint groups, uint group) {
    uint lane = gl_SubgroupInvocationID;
    uint digit = lane % kRadix; // (lanes from kRadix on repeat lanes 0-15's reads: broadcasts)
    uint total = 0u, before = 0u;
    for (uint g = 0u; g < groups; ++g) {
        uint count = s_digitCounters[counterOf(digit, g)];
        total += count;
        before += g < group ? count : 0u;
    }
    uint groupStart = subgroupExclusiveAdd(lane < kRadix ? total : 0u) + before;
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        g_digitRank[j] += subgroupShuffle(groupStart, g_digitRank[j] >> 16u);
    }
}
#endif

// Ranks every key of the tile by its digit (g_digitRank[j] = digit << 16 on entry), stably: keys of
// a smaller digit first, equal digits in input order (subgroup chunk, then step, then lane; see
// tileLayout). On return rankOf(j) is the sorted position of this invocation's key j, and after
// rankTile(false) localDigitStart(d) is where digit d begins. Shared words written before the call
// are published to the whole workgroup by its barriers.
// `scanPerSubgroup` (a constant of the kernel): where every subgroup is full, of 16 lanes or
// more, with counters of its own, each subgroup finds its digits' starts itself
// (placeRanksInRegisters) instead of the counters' shared scan (scanHistogram: one subgroup's or
// the workgroup's), which saves their zeroing, at least two barriers and the wait for that scan.
// The single-workgroup sort, which has nothing else to run meanwhile, takes it; the reorders,
// which run many workgroups per multiprocessor, keep the registers it would take.
void rankTile(bool scanPerSubgroup) {
    uint share = subgroupsPerGroup();
    uint groups = counterGroups();
    uint group = gl_SubgroupID / share;
#if VKSORT_SHUFFLE
    // rankKeysInRegisters writes every counter of its group, so they need no zeroing, and one
    // barrier serves the whole ranking.
    if (scanPerSubgroup && denseSubgroups() && gl_SubgroupSize >= kRadix && share == 1u) {
        rankKeysInRegisters(group);
        barrier();
        placeRanksInRegisters(groups, group);
        return;
    }
#endif
    for (uint i = gl_LocalInvocationIndex; i < kRadix * groups; i += gl_WorkGroupSize.x) {
        s_digitCounters[i] = 0u;
    }
    barrier();
    if (share == 1u) {
        rankKeys(groups, group);
        barrier();
    } else {
        // The subgroups of a group take turns in input order, a barrier apart. A path of its own,
        // so that the usual case has no barrier inside a loop around the unrolled steps.
        for (uint turn = 0u; turn < share; ++turn) {
            if (gl_SubgroupID % share == turn) rankKeys(groups, group);
            barrier();
        }
    }
    scanHistogram(groups);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        g_digitRank[j] += s_digitCounters[counterOf(g_digitRank[j] >> 16u, group)];
    }
}

// Only after rankTile(false): the per-subgroup scan leaves the counters unscanned.
uint localDigitStart(uint digit) {
    return s_digitCounters[counterOf(digit, 0u)];
}

// One 32-bit word per key goes to its rank in shared memory; each invocation then takes back the
// words of its own tile slots, now in sorted order. Keys wider than a word and values move one
// word plane at a time. With two buffers (the single-workgroup sort, where they fit: see
// chooseSingleTileConfig) successive exchanges alternate between them, so none needs a barrier
// after its reads: an exchange writes the buffer read two exchanges earlier, and the barrier of
// the exchange between them orders those reads before these writes.
layout(constant_id = kSpecExchangeBuffers) const uint EXCHANGE_BUFFERS = 1;
shared uint s_exchange[TILE_SIZE * EXCHANGE_BUFFERS];
uint g_exchangeBase = 0u; // where in s_exchange the next exchange writes

// `reuse`: s_exchange is written again afterwards, so end with a barrier (one buffer only).
void exchangeWords(inout uint words[KEYS_PER_THREAD], TileLayout place, bool reuse) {
    uint base = g_exchangeBase;
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) s_exchange[base + rankOf(j)] = words[j];
    barrier();
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) words[j] = s_exchange[base + tileSlot(place, j)];
    if (EXCHANGE_BUFFERS > 1u) g_exchangeBase = TILE_SIZE - base;
    else if (reuse) barrier();
}

// Keys and values move through exchangeWords a 32-bit plane at a time. `reuse` as there.
void exchangeKeys(inout Key keys[KEYS_PER_THREAD], TileLayout place, bool reuse) {
    [[unroll]] for (uint w = 0u; w < KEY_WORDS; ++w) {
        uint words[KEYS_PER_THREAD];
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) words[j] = wordOf(keys[j], w);
        exchangeWords(words, place, reuse || w + 1u < KEY_WORDS);
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) keys[j] = withWord(keys[j], w, words[j]);
    }
}

// Nothing without values (VALUE_WORDS == 0).
void exchangeValues(inout Value values[KEYS_PER_THREAD], TileLayout place, bool reuse) {
    [[unroll]] for (uint w = 0u; w < VALUE_WORDS; ++w) {
        uint words[KEYS_PER_THREAD];
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) words[j] = wordOf(values[j], w);
        exchangeWords(words, place, reuse || w + 1u < VALUE_WORDS);
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) values[j] = withWord(values[j], w, words[j]);
    }
}

// Sorts keys [base, base + count) (count at most TILE_SIZE) by every pass from pc.shift to
// pc.endBit inside this workgroup: each pass ranks and exchanges the keys (and values) in
// registers and shared memory, and only the result goes back to memory, at the same positions of
// the output binding. Every key is read before any is written, so the output may be the input.
void sortInWorkgroup(uint base, uint count) {
    TileLayout place = tileLayout(KEYS_PER_THREAD);
    Key keys[KEYS_PER_THREAD];
    Value values[KEYS_PER_THREAD];
    DigitMap map = digitMap(pc.shift, pc.endBit);
    loadKeys(keys, base, count, place);
    keysToSortOrder(keys, map);
    loadValues(values, base, count, place);
    for (uint shift = pc.shift; shift < pc.endBit; shift += kDigitBits) {
        // Slots past the count keep the largest digit in every pass, so they stay at the end.
        setDigits(keys, count, place, digitMap(shift, pc.endBit));
        // (The keys' exchange below has a barrier after the ranking's last reads of the counters,
        // so the next pass's rankTile may write them, with one exchange buffer or two.)
        rankTile(true);
        exchangeKeys(keys, place, true);
        exchangeValues(values, place, true);
    }
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        if (slot < count) {
            keysOut[base + slot] = mapsKeysOut(map) ? callerKey(keys[j], map) : keys[j];
            storeValue(base + slot, values[j]);
        }
    }
}
