#version 450
// One digit pass: move every key (and its value) to its place for this digit, in one dispatch.
//
// Each workgroup takes the next tile by an atomic ticket, loads it, ranks it stably by digit in
// shared memory (rank.glsl) and reads it back in sorted order, so that consecutive invocations
// hold consecutive keys of the same digit: their global writes land in one run per digit and
// coalesce. A key's destination is
//   (keys of smaller digits, all tiles: the histogram's totals)
//   + (keys of its digit in earlier tiles: the look-back below)
//   + (its rank among keys of its digit in this tile: the local sort).
//
// The look-back is a chained scan over the tile-status table with decoupled fallback: a tile
// publishes its 16 counts as soon as its ranking knows them, then walks back over its
// predecessors, adding counts until it meets an inclusive prefix, then publishes its own
// inclusive prefix. Vulkan promises no forward progress to a workgroup that waits for another
// (a predecessor may not even be scheduled yet), so the walk never waits without bound: after
// kLookbackPolls polls of a predecessor that has published nothing, the workgroup counts that
// tile's keys itself (this pass's input is read-only, so they are there) and publishes them with
// atomicMax, which never overwrites a more advanced state. FALLBACK_PERIOD forces that path in
// tests.

#include "common.glsl"
#include "tile.glsl"
#include "rank.glsl"

// Testing only (kSpecFallbackPeriod): 0, or N to make tiles t with t % N == 1 publish their
// counts late (only with their inclusive prefix) and look-backs treat tiles t % N == 2 as never
// published, so that successors must count them themselves.
layout(constant_id = kSpecFallbackPeriod) const uint FALLBACK_PERIOD = 0u;

// Global position minus local position of each digit's run: slot + offset = destination.
shared uint s_digitOffset[kRadix];
// Per digit: the total over all tiles, this tile's count, and the count in tiles before it.
shared uint s_digitTotal[kRadix];
shared uint s_count[kRadix];
shared uint s_tilePrefix[kRadix];
// Look-back control: the ticket; the last look-back step (counted from 1) in which some digit
// found its predecessor unpublished, and the last in which some digit still had to go on. Steps
// only raise them (atomicMax), so they never need clearing between steps, and a step needs one
// barrier unless it falls back.
shared uint s_tile;
shared uint s_needStep;
shared uint s_moreStep;
shared uint s_fallback[kRadix];

// This tile's count of `digit` among its `valid` keys, from the ranked tile's digit starts (slots
// past the input sort last, as digit map.mask).
uint tileCountOf(uint digit, uint valid, DigitMap map) {
    uint end = digit + 1u < kRadix ? localDigitStart(digit + 1u) : TILE_SIZE;
    uint n = end - localDigitStart(digit);
    return digit == map.mask ? n - (TILE_SIZE - valid) : n;
}

// Adds the counts of each digit in tiles [0, tile) into s_tilePrefix (invocation d walks digit
// d back; the others only help count a predecessor in a fallback). See the top of the file.
void lookBack(uint tile, DigitMap map) {
    uint invocation = gl_LocalInvocationIndex;
    bool pending = invocation < kRadix;
    uint pred = tile;
    for (uint step = 1u;; ++step) {
        pred -= 1u;
        bool unpublished = false;
        if (pending) {
            uint word = kStatusNotReady;
            bool blind = FALLBACK_PERIOD != 0u && pred % FALLBACK_PERIOD == 2u;
            for (uint poll = 0u; poll < kLookbackPolls && !blind; ++poll) {
                word = atomicOr(tables[statusEntry(pc.statusTable, pred, invocation)], 0u);
                if (word != kStatusNotReady) break;
            }
            if (word == kStatusNotReady) {
                unpublished = true;
                atomicMax(s_needStep, step);
            } else {
                s_tilePrefix[invocation] += word & kStatusValueMask;
                pending = (word & kStatusStateMask) != kStatusInclusive && pred != 0u;
            }
            if (pending) atomicMax(s_moreStep, step);
        }
        barrier();
        // Both only grow. A fallback is needed at this step only if some digit asked at this
        // step (no one can ask at the next before the fallback's barriers); ">=" because a
        // workgroup that goes on may already raise s_moreStep for the next step.
        bool more = s_moreStep >= step;
        if (s_needStep == step) {
            // The decoupled fallback: count the predecessor's tile (a whole one: only the last
            // tile is partial) and publish it for everyone else waiting on it.
            if (invocation < kRadix) s_fallback[invocation] = 0u;
            barrier();
            uint base = pred * TILE_SIZE;
            [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
                atomicAdd(s_fallback[digitOf(keysIn[base + j * gl_WorkGroupSize.x + invocation], map)], 1u);
            }
            barrier();
            if (unpublished) {
                uint counted = s_fallback[invocation];
                uint old = atomicMax(tables[statusEntry(pc.statusTable, pred, invocation)], kStatusReady | counted);
                bool inclusive = (old & kStatusStateMask) == kStatusInclusive;
                s_tilePrefix[invocation] += inclusive ? old & kStatusValueMask : counted;
                pending = !inclusive && pred != 0u;
                if (pending) atomicMax(s_moreStep, step);
            }
            if (invocation == 0u) atomicAdd(tables[kInfoFallbacks], 1u);
            barrier();
            more = s_moreStep >= step;
        }
        if (!more) break;
    }
}

void main() {
    uint invocation = gl_LocalInvocationIndex;
    if (invocation == 0u) {
        // Tiles in the order workgroups start, so a look-back waits on tiles already running.
        uint ticket = atomicAdd(tables[kInfoTickets + pc.statusTable], 1u);
        s_tile = ticket;
        // The next pass's ticket, last used by the previous pass, starts again from zero.
        if (ticket == 0u) tables[kInfoTickets + (pc.statusTable ^ 1u)] = 0u;
    }
    barrier();
    uint tile = s_tile;
    uint tiles = tileCount();
    if (tile >= tiles) return;
    uint tileBase = tile * TILE_SIZE;
    uint valid = min(TILE_SIZE, elementCount() - tileBase);
    TileLayout place = tileLayout(KEYS_PER_THREAD);

    // The tile's keys, all loads in flight at once (whole tiles load without guards).
    Key keys[KEYS_PER_THREAD];
    if (valid == TILE_SIZE) {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) keys[j] = keysIn[tileBase + tileSlot(place, j)];
    } else {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
            uint slot = tileSlot(place, j);
            keys[j] = slot < valid ? keysIn[tileBase + slot] : Key(0u);
        }
    }
    if (invocation < kRadix) {
        s_digitTotal[invocation] = tables[totalsEntry(pc.pass, invocation)];
        s_tilePrefix[invocation] = 0u;
        // The next pass's status table: its last reader, the previous pass, is done.
        tables[statusEntry(pc.statusTable ^ 1u, tile, invocation)] = kStatusNotReady;
    }
    if (invocation == 0u) {
        s_needStep = 0u;
        s_moreStep = 0u;
    }

    // Slots past the end of the input get the largest digit: they are last in input order, so
    // the stable rank puts them after every real key, at sorted slots >= valid, never written.
    DigitMap map = digitMap(pc.shift, pc.endBit);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        g_rank[j] = (tileSlot(place, j) < valid ? digitOf(keys[j], map) : map.mask) << 16u;
    }

    rankTile(); // (its barriers also publish the shared words written above)

    // Publish this tile's counts at once: successors need them before this tile's prefix.
    bool late = FALLBACK_PERIOD != 0u && tile % FALLBACK_PERIOD == 1u;
    if (invocation < kRadix) {
        uint n = tileCountOf(invocation, valid, map);
        s_count[invocation] = n;
        if (tile == 0u) atomicMax(tables[statusEntry(pc.statusTable, 0u, invocation)], kStatusInclusive | n);
        else if (!late) atomicMax(tables[statusEntry(pc.statusTable, tile, invocation)], kStatusReady | n);
    }
    if (tile != 0u) lookBack(tile, map);
    if (invocation < kRadix && tile != 0u) {
        uint inclusive = s_tilePrefix[invocation] + s_count[invocation];
        atomicMax(tables[statusEntry(pc.statusTable, tile, invocation)], kStatusInclusive | inclusive);
    }
    barrier();
    if (invocation < kRadix) {
        uint digit = invocation;
        uint global = s_tilePrefix[digit];
        [[unroll]] for (uint d = 0u; d < kRadix; ++d) global += d < digit ? s_digitTotal[d] : 0u;
        s_digitOffset[digit] = global - localDigitStart(digit);
    }
    // (The barrier inside exchangeWords publishes s_digitOffset before it is read below.)

#if VKSORT_KEY_WORDS == 1
    exchangeWords(keys, place, VKSORT_VALUE_WORDS > 0);
#else
    uint low[KEYS_PER_THREAD], high[KEYS_PER_THREAD];
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        low[j] = keys[j].x;
        high[j] = keys[j].y;
    }
    exchangeWords(low, place, true);
    exchangeWords(high, place, VKSORT_VALUE_WORDS > 0);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) keys[j] = uvec2(low[j], high[j]);
#endif

    // keys[j] is now the key at sorted slot tileSlot(place, j).
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        if (slot < valid) keysOut[s_digitOffset[digitOf(keys[j], map)] + slot] = keys[j];
    }

#if VKSORT_VALUE_WORDS > 0
    // Values are loaded only now, in input order, to keep registers free during the ranking; their
    // destinations are recomputed from the sorted keys rather than kept in registers.
    uint words[KEYS_PER_THREAD];
    bool index = (pc.flags & kFlagIndexValues) != 0u;
#if VKSORT_VALUE_WORDS == 1
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        words[j] = slot < valid ? (index ? tileBase + slot : valuesIn[tileBase + slot]) : 0u;
    }
    exchangeWords(words, place, false);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        if (slot < valid) valuesOut[s_digitOffset[digitOf(keys[j], map)] + slot] = words[j];
    }
#else
    uint highWords[KEYS_PER_THREAD];
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        uvec2 value = slot < valid ? valuesIn[tileBase + slot] : uvec2(0u);
        words[j] = value.x;
        highWords[j] = value.y;
    }
    exchangeWords(words, place, true);
    exchangeWords(highWords, place, false);
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        if (slot < valid) valuesOut[s_digitOffset[digitOf(keys[j], map)] + slot] = uvec2(words[j], highWords[j]);
    }
#endif
#endif
}
