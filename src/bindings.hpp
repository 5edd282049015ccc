// Bindings: which buffer each pass reads and writes, as the descriptor sets of a bindings object
// (src/bindings.cpp writes them; the program names one per step).
#pragma once

#include <cstdint>

namespace vksort {

// Descriptor sets of a bindings object, one per direction of the ping-pong: even passes read the
// caller's buffers and write the scratch copies, odd passes the reverse. The single-workgroup
// sort writes its result where the passes would have: in place for an even pass count.
enum BindingSet : uint32_t { kSetForward = 0, kSetBackward = 1, kSetInPlace = 2, kSetCount = 3 };

} // namespace vksort
