// SPDX-License-Identifier: MIT
// vksort GLSL library: the geometry of one workgroup's tile of keys, as the host planned it
// (specialization constants: no shader may choose its own, or its tiles would disagree with the
// host's grids and row strides), and the tile's keys and values between memory and registers.
// Included after common.glsl by every pass but the scan.

layout(constant_id = kSpecKeysPerThread) const uint KEYS_PER_THREAD = 16;
const uint TILE_SIZE = gl_WorkGroupSize.x * KEYS_PER_THREAD;
// Whether loadValues and setDigits (rank.glsl) give a whole tile (every tile but a partial last
// one) a copy of their per-key loop without the test against `valid`: fewer instructions per key,
// larger binaries and longer pipeline creation (the tuning row's, per kernel). loadKeys,
// scatterValues and the reorder's counting scatter always have the copy; scatterKeys never.
layout(constant_id = kSpecWholeTileCopies) const bool WHOLE_TILE_COPIES = true;
bool wholeTileCopy(uint valid) { return WHOLE_TILE_COPIES && valid == TILE_SIZE; }

// Which keys a tile holds. A sort tiles its keys from the first. A segmented sort's segments
// larger than one workgroup's sort (SEGMENTED: the segment_ and segment_list_ counts and
// reorders) tile each segment from its start, so that no tile holds keys of two segments and the
// passes sort each segment on its own: a reorder places its keys after its segment's keys of
// smaller digits (reorder.comp). Uniform segment s of pc.segmentSize keys (the host clamps it to
// the count) owns tiles [s * per, (s + 1) * per), per = ceil(pc.segmentSize / TILE_SIZE), the
// last segment as many as its keys fill. By offsets (SEGMENT_LISTS) each tile's segment is a
// member of the classify step's list of large segments (segment_classify.comp), which holds its
// range and first tile, and the tiles' count is the classify step's. The two are pipelines of
// their own, so that the uniform segments' reorder keeps its span in arithmetic of push constants
// rather than in words loaded from the tables.
struct TileSpan {
    uint base;          // the tile's first key
    uint valid;         // its keys (at least 1)
    uint segmentBase;   // its segment's first key: 0 when not SEGMENTED
    uint firstTile;     // its segment's tiles, [firstTile, endTile): every tile when not SEGMENTED
    uint endTile;
};

TileSpan tileSpan(uint tile, uint tiles, uint count) {
    if (!SEGMENTED) return TileSpan(tile * TILE_SIZE, min(TILE_SIZE, count - tile * TILE_SIZE), 0u, 0u, tiles);
    TileSpan span;
    if (SEGMENT_LISTS) {
        uint member = tables[vksortTileMembersOffset(pc.rowStride) + tile];
        uint at = vksortLargeListOffset(pc.rowStride, pc.maxCount, pc.tinyMaxCount, pc.shortMaxCount, pc.midMaxCount) + 3u * member;
        uint begin = tables[at], end = tables[at + 1u];
        span.firstTile = tables[at + 2u];
        span.endTile = span.firstTile + vksortCeilDiv(end - begin, TILE_SIZE);
        span.segmentBase = begin;
        uint local = (tile - span.firstTile) * TILE_SIZE;
        span.base = begin + local;
        span.valid = min(TILE_SIZE, end - span.base);
        return span;
    }
    uint per = vksortCeilDiv(pc.segmentSize, TILE_SIZE);
    uint segment = tile / per;
    span.firstTile = segment * per;
    span.endTile = min(span.firstTile + per, tiles);
    span.segmentBase = segment * pc.segmentSize;
    uint local = (tile - span.firstTile) * TILE_SIZE;
    span.base = span.segmentBase + local;
    span.valid = min(TILE_SIZE, min(pc.segmentSize, count - span.segmentBase) - local);
    return span;
}

// The tile that holds position `position` of the span's segment.
uint tileOfPosition(uint position, TileSpan span) {
    return SEGMENTED ? span.firstTile + (position - span.segmentBase) / TILE_SIZE : position / TILE_SIZE;
}

// The keys of the tile at `tileBase` in tile-slot order (tileSlot): keys[j] is slot
// tileSlot(place, j), and slots from `valid` on (past the input) hold Key(0u). All loads are
// issued before any is used; a whole tile's loop has no test against `valid`.
void loadKeys(out Key keys[KEYS_PER_THREAD], uint tileBase, uint valid, TileLayout place) {
    if (valid == TILE_SIZE) {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) keys[j] = keysIn[tileBase + tileSlot(place, j)];
    } else {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
            uint slot = tileSlot(place, j);
            keys[j] = slot < valid ? keysIn[tileBase + slot] : Key(0u);
        }
    }
}

// The loaded keys in sort order: mapped if this dispatch reads the caller's keys (common.glsl).
// The reorder calls it after the counts' loads are issued, or with EARLY_VALUES right after the
// keys' loads (scatter.glsl), where its registers are free sooner.
void keysToSortOrder(inout Key keys[KEYS_PER_THREAD], DigitMap map) {
    if (mapsKeysIn(map)) {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) keys[j] = orderedKey(keys[j], map);
    }
}

// The value at input position `position`, or with `index` (kFlagIndexValues: an argsort's first
// pass) the position itself; 0 without values (VALUE_WORDS == 0).
Value valueAt(uint position, bool index) {
#if VKSORT_VALUE_WORDS == 1
    return index ? position : valuesIn[position];
#elif VKSORT_VALUE_WORDS == 2
    return valuesIn[position];
#else
    return 0u;
#endif
}

// The values of the same slots as loadKeys (0 from `valid` on). Without values it loads nothing.
void loadValues(out Value values[KEYS_PER_THREAD], uint tileBase, uint valid, TileLayout place) {
    bool index = (pc.flags & kFlagIndexValues) != 0u;
    if (wholeTileCopy(valid)) {
        [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) values[j] = valueAt(tileBase + tileSlot(place, j), index);
        return;
    }
    [[unroll]] for (uint j = 0u; j < KEYS_PER_THREAD; ++j) {
        uint slot = tileSlot(place, j);
        values[j] = slot < valid ? valueAt(tileBase + slot, index) : Value(0u);
    }
}

// Writes a value to the output (nothing without values).
void storeValue(uint position, Value value) {
#if VKSORT_VALUE_WORDS > 0
    valuesOut[position] = value;
#endif
}
