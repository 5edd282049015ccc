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
// tests. The fallback makes any launch order correct; the ticket makes it rare, by giving out tiles
// in the order workgroups start. Without it, a driver that runs a dispatch's workgroups out of
// order makes tiles walk back over thousands of unstarted predecessors (lavapipe splits the grid
// between its threads, and also ends a shader's loops after 65535 iterations in all, which such a
// walk exceeds); on the H100 it costs 4-14% (docs/PERFORMANCE.md).

#define VKSORT_TABLES_COHERENT 1
#include "common.glsl"
#include "tile.glsl"
#include "rank.glsl"
#include "scatter.glsl"

// Testing only (kSpecFallbackPeriod): 0, or N to make tiles t with t % N == 1 publish their
// counts late (only with their inclusive prefix) and look-backs treat tiles t % N == 2 as never
// published, so that successors must count them themselves.
layout(constant_id = kSpecFallbackPeriod) const uint FALLBACK_PERIOD = 0u;

// The ticket: this workgroup's tile.
shared uint s_tile;
// Per digit: the total over all tiles, this tile's count, and the count in tiles before it.
shared uint s_digitTotal[kRadix];
shared uint s_count[kRadix];
shared uint s_tilePrefix[kRadix];
// Look-back state per digit: the nearest predecessor not yet added, plus one (0: the digit's prefix
// is complete), and how many steps in a row that tile was found unpublished.
shared uint s_next[kRadix];
shared uint s_polls[kRadix];
// Per step parity and digit: the nearest window position holding an inclusive prefix or an
// unpublished tile (the walk stops there).
shared uint s_stop[2][kRadix];
// The last look-back step (counted from 1) in which some digit still had to go on: steps only raise
// it (atomicMax), so it never needs clearing between steps.
shared uint s_moreStep;
// Per step parity: the tile a fallback must count in that step, plus one (0: none).
shared uint s_fallbackTile[2];
shared uint s_fallback[kRadix];

// Each look-back step reads LOOKBACK_TILES predecessors' 16 status words at once, LOOKBACK_LOADS
// words per invocation: a walk often crosses dozens of tiles that have published only their counts,
// and every step costs a load and two barriers, while a wider window costs more loads
// (docs/PERFORMANCE.md has the sweep).
const uint LOOKBACK_LOADS = 4u;
const uint LOOKBACK_STRIDE = gl_WorkGroupSize.x / kRadix; // window positions per load round
const uint LOOKBACK_TILES = LOOKBACK_STRIDE * LOOKBACK_LOADS;

// This tile's count of `digit` among its `valid` keys, from the ranked tile's digit starts (slots
// past the input sort last, as digit map.mask).
uint tileCountOf(uint digit, uint valid, DigitMap map) {
    uint end = digit + 1u < kRadix ? localDigitStart(digit + 1u) : TILE_SIZE;
    uint n = end - localDigitStart(digit);
    return digit == map.mask ? n - (TILE_SIZE - valid) : n;
}

// Adds the counts of each digit in tiles [0, tile) into s_tilePrefix. Each step reads a window of
// LOOKBACK_TILES predecessors per digit (position k is tile s_next - 1 - k), finds per digit the
// nearest position that is an inclusive prefix or unpublished (a shared atomicMin), and adds every
// count before it, and the inclusive prefix itself, in parallel. An inclusive prefix ends the digit's
// walk; an unpublished tile is polled again next step, and one found unpublished kLookbackPolls steps
// in a row is counted by this workgroup (the decoupled fallback). See the top of the file.
void lookBack(DigitMap map) {
    uint invocation = gl_LocalInvocationIndex;
    uint digit = invocation % kRadix, first = invocation / kRadix;
    for (uint step = 1u;; ++step) {
        uint parity = step % 2u;
        uint next = s_next[digit];
        uint words[LOOKBACK_LOADS];
        [[unroll]] for (uint m = 0u; m < LOOKBACK_LOADS; ++m) {
            uint k = first + m * LOOKBACK_STRIDE;
            words[m] = kStatusInclusive; // past tile 0 (or a finished digit): ends the walk, adds 0
            if (k < next) {
                uint pred = next - 1u - k;
                bool blind = FALLBACK_PERIOD != 0u && pred % FALLBACK_PERIOD == 2u;
                // A plain load: an atomic here serializes in the L2 on words a hundred successors read.
                words[m] = blind ? kStatusNotReady : tables[statusEntry(pc.statusTable, pred, digit)];
            }
        }
        [[unroll]] for (uint m = 0u; m < LOOKBACK_LOADS; ++m) {
            if ((words[m] & kStatusStateMask) != kStatusReady) {
                atomicMin(s_stop[parity][digit], first + m * LOOKBACK_STRIDE);
                break; // later loads of this invocation lie further back
            }
        }
        barrier();
        if (invocation < kRadix) s_stop[1u - parity][invocation] = LOOKBACK_TILES; // read last step, before the barrier above
        if (invocation == 0u) s_fallbackTile[1u - parity] = 0u;
        uint stop = s_stop[parity][digit];
        uint sum = 0u;
        [[unroll]] for (uint m = 0u; m < LOOKBACK_LOADS; ++m) {
            uint k = first + m * LOOKBACK_STRIDE;
            bool inclusive = (words[m] & kStatusStateMask) == kStatusInclusive;
            if (k < stop || (k == stop && inclusive)) sum += words[m] & kStatusValueMask;
        }
        if (next != 0u && sum != 0u) atomicAdd(s_tilePrefix[digit], sum);
        // One invocation per unfinished digit moves its walk: the one holding the stop, or the
        // nearest position's when the whole window was added.
        uint owner = stop < LOOKBACK_TILES ? stop : 0u;
        if (next != 0u && first == owner % LOOKBACK_STRIDE) {
            uint m = owner / LOOKBACK_STRIDE;
            uint word = words[0];
            [[unroll]] for (uint i = 1u; i < LOOKBACK_LOADS; ++i) word = m == i ? words[i] : word;
            uint left;
            if (stop == LOOKBACK_TILES) {
                left = next - LOOKBACK_TILES;
                s_polls[digit] = 0u;
            } else if (word == kStatusNotReady) {
                left = next - stop;
                uint polls = stop == 0u ? s_polls[digit] + 1u : 1u;
                s_polls[digit] = polls;
                if (polls >= kLookbackPolls) atomicMax(s_fallbackTile[parity], left);
            } else {
                left = 0u;
            }
            s_next[digit] = left;
            if (left != 0u) atomicMax(s_moreStep, step);
        }
        barrier();
        bool more = s_moreStep >= step;
        uint fallback = s_fallbackTile[parity];
        if (fallback != 0u) {
            // The decoupled fallback: count the predecessor's tile (a whole one: only the last
            // tile is partial) and publish it for everyone else waiting on it.
            uint pred = fallback - 1u;
            if (invocation < kRadix) s_fallback[invocation] = 0u;
            barrier();
            uint base = pred * TILE_SIZE;
            [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
                Key key = keysIn[base + j * gl_WorkGroupSize.x + invocation];
                atomicAdd(s_fallback[digitOf(mapsKeysIn(map) ? orderedKey(key, map) : key, map)], 1u);
            }
            barrier();
            if (invocation < kRadix) {
                uint counted = s_fallback[invocation];
                uint old = atomicMax(tables[statusEntry(pc.statusTable, pred, invocation)], kStatusReady | counted);
                if (s_next[invocation] == fallback) {
                    bool inclusive = (old & kStatusStateMask) == kStatusInclusive;
                    s_tilePrefix[invocation] += inclusive ? old & kStatusValueMask : counted;
                    s_next[invocation] = inclusive ? 0u : pred;
                    s_polls[invocation] = 0u;
                }
            }
            if (invocation == 0u) atomicAdd(tables[kInfoFallbacks], 1u);
            barrier();
        }
        if (!more) break;
    }
}

// The next tile by atomic ticket (see the top of the file).
uint takeTile() {
    if (gl_LocalInvocationIndex == 0u) {
        uint ticket = atomicAdd(tables[kInfoTickets + pc.statusTable], 1u);
        s_tile = ticket;
        // The next pass's ticket, last taken by the previous pass, starts again from zero.
        if (ticket == 0u) tables[kInfoTickets + pc.nextStatusTable] = 0u;
    }
    barrier();
    return s_tile;
}

// The digit totals, and the look-back's state; clears this tile's words of the next pass's status
// table (its last reader, the previous pass, is done). Published by the next barrier.
void startLookBack(uint tile) {
    uint invocation = gl_LocalInvocationIndex;
    if (invocation < kRadix) {
        s_digitTotal[invocation] = tables[totalsEntry(pc.pass, invocation)];
        s_tilePrefix[invocation] = 0u;
        tables[statusEntry(pc.nextStatusTable, tile, invocation)] = kStatusNotReady;
        s_next[invocation] = tile;
        s_polls[invocation] = 0u;
        s_stop[1][invocation] = LOOKBACK_TILES; // step 1's
    }
    if (invocation == 0u) {
        s_moreStep = 0u;
        s_fallbackTile[0] = 0u;
        s_fallbackTile[1] = 0u;
    }
}

// This tile's counts, at once after the ranking: successors need them before this tile's prefix.
void publishCounts(uint tile, uint valid, DigitMap map) {
    bool late = FALLBACK_PERIOD != 0u && tile % FALLBACK_PERIOD == 1u;
    uint digit = gl_LocalInvocationIndex;
    if (digit < kRadix) {
        uint n = tileCountOf(digit, valid, map);
        s_count[digit] = n;
        if (tile == 0u) atomicMax(tables[statusEntry(pc.statusTable, 0u, digit)], kStatusInclusive | n);
        else if (!late) atomicMax(tables[statusEntry(pc.statusTable, tile, digit)], kStatusReady | n);
    }
}

// This tile's inclusive prefix, once the look-back has summed the tiles before it; then
// s_digitOffset, from it and the digit totals.
void placeDigits(uint tile) {
    uint digit = gl_LocalInvocationIndex;
    if (digit < kRadix && tile != 0u) {
        atomicMax(tables[statusEntry(pc.statusTable, tile, digit)], kStatusInclusive | (s_tilePrefix[digit] + s_count[digit]));
    }
    barrier();
    if (digit < kRadix) {
        uint global = s_tilePrefix[digit];
        [[unroll]] for (uint d = 0u; d < kRadix; ++d) global += d < digit ? s_digitTotal[d] : 0u;
        s_digitOffset[digit] = global - localDigitStart(digit);
    }
    barrier();
}

void main() {
    uint tile = takeTile();
    uint tiles = tileCount();
    if (tile >= tiles) return;
    uint tileBase = tile * TILE_SIZE;
    uint valid = min(TILE_SIZE, elementCount() - tileBase);
    TileLayout place = tileLayout(KEYS_PER_THREAD);
    DigitMap map = digitMap(pc.shift, pc.endBit);

    Key keys[KEYS_PER_THREAD];
    loadKeys(keys, tileBase, valid, place);
    if (EARLY_VALUES) keysToSortOrder(keys, map);
    startLookBack(tile);
    if (!EARLY_VALUES) keysToSortOrder(keys, map);
    setDigits(keys, valid, place, map);
    rankTile(false); // (its barriers also publish the shared words written above)
    publishCounts(tile, valid, map);
    // The keys in sorted order before the look-back: it then finds more predecessors done.
    Value values[KEYS_PER_THREAD];
    if (EARLY_VALUES) loadValues(values, tileBase, valid, place);
    exchangeKeys(keys, place, VALUE_WORDS > 0u);
    if (tile != 0u) lookBack(map);
    placeDigits(tile);
    scatterKeys(keys, valid, place, map);
    scatterValues(keys, values, tileBase, valid, place, map);
}
