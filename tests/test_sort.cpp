// End-to-end sorts against std::stable_sort, with guard bands and validation (support.hpp).
#include <catch2/catch.hpp>

#include "support.hpp"

using vktest::Case;

TEST_CASE("u32 keys, sizes around the tile boundaries", "[sort]") {
    VksortSorterProperties p{};
    vksortGetSorterProperties(vktest::sorter(), &p);
    const uint32_t tile = p.tileSize, small = p.singleDispatchMaxCount;
    for (uint32_t count : {0u, 1u, 2u, small - 1, small, small + 1, tile - 1, tile, tile + 1, 3 * tile + 5}) {
        for (VksortValueType value : {VKSORT_VALUE_TYPE_NONE, VKSORT_VALUE_TYPE_UINT32}) {
            Case c;
            c.count = count;
            c.value = value;
            vktest::sortAndCheck(c);
        }
    }
}

TEST_CASE("the issue's acceptance sort: a million keys, three distinct, with values", "[sort]") {
    Case c;
    c.count = 1000003;
    c.dist.kind = hostdata::Distribution::Few;
    c.dist.parameter = 3;
    c.value = VKSORT_VALUE_TYPE_UINT32;
    vktest::sortAndCheck(c);
}
