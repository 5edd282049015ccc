/* SPDX-License-Identifier: MIT */
/* vksort: stable GPU radix sort for Vulkan 1.1, recorded into your command buffers.
 *
 * This header is the whole API and its manual.
 *
 * QUICK START
 *   1. vksortCreateSorter() once per VkDevice, with your vkGet*ProcAddr.
 *   2. vksortGetMemoryRequirements() for the largest count you will sort; create the keys,
 *      values and scratch buffers with the sizes, alignments and usage flags it reports, from
 *      your own allocator. vksort never allocates device memory.
 *   3. vksortCreateBindings() once per set of buffers (like a VkFramebuffer).
 *   4. vksortCmdSort() records the sort into your command buffer; submit it yourself.
 *
 * ALGORITHM
 *   Least-significant-digit radix sort with 4-bit digits: one pass per 4 bits of the sorted bit
 *   range (8 passes for 32-bit keys, 16 for 64-bit keys). Each pass moves the keys (and values)
 *   stably by one digit into the other buffer of a ping-pong pair: your keys buffer and a
 *   same-sized region of the scratch buffer. The sort is stable: keys that compare equal keep
 *   their input order, and values move with their keys. What vksortCmdSort records depends on
 *   the count: a few thousand keys may take no passes (the compare sort, see
 *   compareSortMaxCount in VksortSorterProperties): one dispatch places each key by counting
 *   the keys that go ahead of it (every pair compared), and after an even pass count a second
 *   copies the result back where the passes would have left it; other counts up to
 *   singleDispatchMaxCount keys, one dispatch that sorts them in one workgroup (by every pass,
 *   or by comparisons); up to a few tens of thousands (the merge sort, see mergeSortMaxCount),
 *   one dispatch sorts each chunk of singleDispatchMaxCount keys in a workgroup of its own (by
 *   every pass, or by comparisons) and a second places each key among all the chunks' keys
 *   (binary searches); otherwise a dispatch that counts the first pass's digits per tile, then
 *   per pass a scan of those counts (none with few tiles: each reorder workgroup then sums them
 *   itself) and a reorder dispatch that also counts the next pass's digits. No workgroup ever
 *   waits for another, so no forward-progress guarantee is assumed. vksortCmdSortIndirect records the
 *   paths the bindings' maxCount allows and lets the count read on the GPU launch one of them
 *   (see there). A sorter created with
 *   VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT leaves out the passes whose digit every key
 *   shares. docs/DESIGN.md explains each kernel.
 *
 * DEVICE REQUIREMENTS
 *   Vulkan 1.1 with subgroup operations of the basic, ballot and arithmetic classes supported in
 *   compute shaders (VkPhysicalDeviceSubgroupProperties), and 5 storage buffers per shader stage
 *   (maxPerStageDescriptorStorageBuffers; 6 for a sorter created with
 *   VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT or VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT).
 *   No device feature or extension has to be enabled. Any subgroup size from 1 to 128 is handled, subgroups need not be full, and a
 *   driver that launches narrower subgroups than it reports still gets a correct sort. Where
 *   the device also offers subgroup shuffles (VK_SUBGROUP_FEATURE_SHUFFLE_BIT), full subgroups
 *   of 16 lanes or more rank keys in registers with them in the single-workgroup sort; nothing
 *   has to be enabled for that.
 *
 * BINDING MODEL, AND WHY
 *   Buffers reach the shaders through storage-buffer descriptors, in one of two ways:
 *   - Buffers at record time (the way to call it where the device offers VK_KHR_push_descriptor,
 *     as every desktop driver does): enable the extension on your device, create the sorter with
 *     VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT, and give each sort its buffers in
 *     VksortSortInfo::pBuffers. The sort pushes its descriptors as it records
 *     (vkCmdPushDescriptorSetKHR): nothing to create or destroy per buffer set, so buffers
 *     reallocated or taken from a per-frame ring need no bookkeeping, and vksortCmdSortIndirect
 *     reads the count where it lies, without a copy.
 *   - Bindings (every Vulkan 1.1 device): a VksortBindings object allocates descriptor sets for
 *     one set of buffers and writes them once, when it is created; recording only binds them.
 *     Create one per set of buffers and destroy it once no pending command buffer uses it.
 *   Either way recording allocates nothing, and several threads may record with one sorter (and
 *   one bindings object) at once.
 *
 * SYNCHRONIZATION CONTRACT (for vksortCmdSort; vksortCmdSortIndirect adds the count's read, see there)
 *   The recorded commands are compute dispatches (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) that
 *   read and write the keys, values and scratch buffers as storage buffers
 *   (VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT); with
 *   VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT 80 bytes of the scratch buffer are also read
 *   as a uniform buffer (VK_ACCESS_UNIFORM_READ_BIT), and launch arguments beside them by
 *   vkCmdDispatchIndirect (VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
 *   VK_ACCESS_INDIRECT_COMMAND_READ_BIT), both written only by the sort.
 *   Before: make your writes of keys and values available to COMPUTE_SHADER reads, and order
 *     every earlier access to keys, values and scratch before COMPUTE_SHADER writes: the sort
 *     writes your keys and values too (odd passes write back into them, argsort overwrites
 *     values), so an earlier reader of them needs a write-after-read barrier (e.g. a buffer or
 *     global memory barrier from your producer's or reader's stage/access to COMPUTE_SHADER,
 *     SHADER_READ | SHADER_WRITE).
 *   After: the result is written by COMPUTE_SHADER with SHADER_WRITE; put a barrier from there
 *     to your consumer's stage and access before you read it. Its last accesses to the scratch
 *     buffer are among COMPUTE_SHADER reads and writes (UNIFORM_READ included) and DRAW_INDIRECT
 *     INDIRECT_COMMAND_READ, and its last accesses to your keys and values ranges are
 *     COMPUTE_SHADER reads and writes, wherever the result lands (a sort that leaves it in
 *     scratch last reads them); include those stages before you write any of them again.
 *   Between its own dispatches the sort records the global memory barriers its own writes need:
 *   COMPUTE_SHADER writes to COMPUTE_SHADER reads and writes, and where a dispatch writes what
 *   later ones read as launch arguments or as a uniform buffer, to DRAW_INDIRECT
 *   INDIRECT_COMMAND_READ and UNIFORM_READ too (and after vksortCmdSortIndirect's copy of the
 *   count, where it copies it, TRANSFER writes to COMPUTE_SHADER reads and writes). It binds its
 *   own compute pipeline, descriptor set 0 with its own pipeline layout (which, by Vulkan's
 *   layout-compatibility rules, can disturb any compute descriptor set you had bound) and its
 *   push constants: rebind the compute pipeline, every compute descriptor set and the push
 *   constants you rely on afterwards. Graphics state is untouched.
 *
 * THREADS
 *   A VksortSorter (but for an atomic count of its live bindings) and a VksortBindings are
 *   immutable after creation. Any number of threads may record with them at once, each into its
 *   own command buffer, and create or destroy other bindings of the same sorter meanwhile (each
 *   bindings object owns its descriptor pool). Sorters may be created and destroyed on several
 *   threads at once: vksort keeps no global state but the assert handler (a pipeline cache
 *   created with VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT is then yours to
 *   serialize). Destroy an object only after every command buffer that uses it has completed
 *   execution, and never while another thread uses that same object.
 *
 * LOADERS
 *   vksort calls no global vk* function. This header includes <vulkan/vulkan_core.h>; with volk
 *   (or any loader that defines the entry points as variables), compile every file that includes
 *   it with VK_NO_PROTOTYPES defined, as volk requires anyway.
 *
 * ERRORS
 *   Functions that can fail because of the device or the host return a VkResult, and explain it
 *   through the sorter's pfnMessageCallback when one is set. Invalid usage (a null handle or
 *   function pointer, a count above the capacity, a misaligned offset, a buffer range too
 *   small, an empty bit range...) is reported through the assert handler
 *   (vksortSetAssertHandler) instead; the default one prints the message and calls abort(). If
 *   an installed handler returns, the function returns VK_ERROR_VALIDATION_FAILED_EXT (one that
 *   returns no VkResult returns 0, or nothing) and records, creates or writes nothing. No sort is ever skipped silently: a recorded sort always sorts.
 */
#ifndef VKSORT_H
#define VKSORT_H

#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* VKSORT_VERSION_MAJOR, VKSORT_VERSION_MINOR, VKSORT_VERSION_PATCH: generated from CMake's project(VERSION). */
#include <vksort/vksort_version.h>

/* A sorter: pipelines and device facts for one VkDevice. */
VK_DEFINE_HANDLE(VksortSorter)
/* The descriptor sets that bind one set of keys, values and scratch buffers. */
VK_DEFINE_HANDLE(VksortBindings)

/* The key's bit pattern and how it is ordered. Signed keys are two's complement. Floating-point
 * keys are ordered by IEEE 754 totalOrder, on the bits alone:
 *   -NaN < -inf < -finite < -0.0 < +0.0 < +finite < +inf < +NaN
 * (NaNs of either sign are ordered among themselves by payload.) */
typedef enum VksortKeyType {
    VKSORT_KEY_TYPE_UINT32 = 0,
    VKSORT_KEY_TYPE_INT32 = 1,
    VKSORT_KEY_TYPE_FLOAT32 = 2,
    VKSORT_KEY_TYPE_UINT64 = 3,
    VKSORT_KEY_TYPE_INT64 = 4,
    VKSORT_KEY_TYPE_FLOAT64 = 5,
    VKSORT_KEY_TYPE_MAX_ENUM = 0x7FFFFFFF
} VksortKeyType;

/* A set of key types, for VksortSorterCreateInfo::keyTypes: one bit per VksortKeyType. */
#define VKSORT_KEY_TYPE_BIT(keyType) (1u << (uint32_t)(keyType))

/* What moves with each key. */
typedef enum VksortValueType {
    /* Keys only. */
    VKSORT_VALUE_TYPE_NONE = 0,
    /* Any 32-bit payload, moved unchanged. */
    VKSORT_VALUE_TYPE_UINT32 = 1,
    /* Any 64-bit payload, moved unchanged. */
    VKSORT_VALUE_TYPE_UINT64 = 2,
    /* Argsort: the sort writes, as the value of each output key, the uint32_t index that key
     * had in the input. The values buffer is output only: its contents before the sort are
     * ignored. */
    VKSORT_VALUE_TYPE_INDEX = 3,
    VKSORT_VALUE_TYPE_MAX_ENUM = 0x7FFFFFFF
} VksortValueType;

/* A set of value types, for VksortSorterCreateInfo::valueTypes: one bit per VksortValueType. */
#define VKSORT_VALUE_TYPE_BIT(valueType) (1u << (uint32_t)(valueType))

/* Bytes per key in the keys buffer: 4 for the 32-bit key types, 8 for the 64-bit ones.
 * keyType must be a valid VksortKeyType. */
static inline uint32_t vksortKeySize(VksortKeyType keyType) {
    return keyType >= VKSORT_KEY_TYPE_UINT64 ? 8u : 4u;
}

/* Bytes per value in the values buffer: 0 for VKSORT_VALUE_TYPE_NONE (no values buffer), 4 for
 * VKSORT_VALUE_TYPE_UINT32 and VKSORT_VALUE_TYPE_INDEX (uint32_t indices), 8 for
 * VKSORT_VALUE_TYPE_UINT64. valueType must be a valid VksortValueType. */
static inline uint32_t vksortValueSize(VksortValueType valueType) {
    return valueType == VKSORT_VALUE_TYPE_UINT64 ? 8u : valueType == VKSORT_VALUE_TYPE_NONE ? 0u : 4u;
}

typedef enum VksortOrder {
    /* Smallest key first (signed and float keys by value: VksortKeyType); equal keys keep their
     * input order. */
    VKSORT_ORDER_ASCENDING = 0,
    /* Largest key first. Still stable: equal keys keep their input order. */
    VKSORT_ORDER_DESCENDING = 1,
    VKSORT_ORDER_MAX_ENUM = 0x7FFFFFFF
} VksortOrder;

/* Receives a human-readable explanation whenever vksortCreateSorter or vksortCreateBindings (with
 * this sorter) returns an error VkResult other than VK_ERROR_VALIDATION_FAILED_EXT, which goes to
 * the assert handler: for example which device capability is missing, or which Vulkan call
 * failed. Called on the failing thread. */
typedef void(VKAPI_PTR* PFN_vksortMessageCallback)(const char* message, void* pUserData);

typedef VkFlags VksortSorterCreateFlags;
typedef enum VksortSorterCreateFlagBits {
    /* The device was created with the subgroupSizeControl feature enabled, and with
     * computeFullSubgroups enabled too where the physical device supports it (Vulkan 1.3 core,
     * or VK_EXT_subgroup_size_control). Needed only for requiredSubgroupSize: the sort is as
     * fast without it, since the shaders find at run time whether every subgroup is full and
     * size their shared arrays from the subgroup sizes the device reports, whatever was enabled.
     * With it the sorter also requests full subgroups where computeFullSubgroups is supported.
     * vksort reads what the physical device supports, not what the device enabled: it returns
     * VK_ERROR_FEATURE_NOT_PRESENT when neither Vulkan 1.3 nor the extension is available or
     * subgroupSizeControl is unsupported. */
    VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT = 0x00000001,
    /* The sorter creates its pipelines with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, so
     * that the driver's statistics of each (registers, shared memory, spills...) can be read with
     * vkGetPipelineExecutableStatisticsKHR on the pipelines vksortGetSorterPipelines lists. The
     * device must have been created with VK_KHR_pipeline_executable_properties and its
     * pipelineExecutableInfo feature enabled (vksort cannot check this: without them pipeline
     * creation is invalid usage). Meant for tuning tools; may slow pipeline creation. */
    VKSORT_SORTER_CREATE_CAPTURE_STATISTICS_BIT = 0x00000002,
    /* For keys that leave whole 4-bit digits the same in every key: tile ids packed above depths,
     * counts or indices far below 2^32, Morton codes of a grid much smaller than the key. Every
     * multi-tile sort by this sorter finds on the GPU, from the keys it sorts, which digits of the
     * sorted bit range are the same in every key, and leaves out their passes: in a
     * vksortCmdSort with a scan step per pass (more tiles than the reorders scan inline) the
     * passes after the first are indirect dispatches (vkCmdDispatchIndirect) whose arguments the
     * sort writes into the scratch buffer once it has decided, and a pass left out launches no
     * workgroup; otherwise the dispatches of a pass left out return at once. Either way its
     * dispatches and barriers remain recorded. The result is the same sort and lands where
     * VksortSortResult says: where an odd number of passes would be left out, one of them runs
     * anyway. The sorter compiles its own variants of the tile-counts, scan and reorder kernels,
     * a few percent slower on keys that vary in every digit (docs/PERFORMANCE.md, "Keys that use
     * few bits"); sorts of at most singleDispatchMaxCount keys, and those the compare sort or
     * the merge sort takes (compareSortMaxCount, mergeSortMaxCount), are unchanged. */
    VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT = 0x00000004,
    /* Without this flag vksortCreateSorter compiles its pipelines concurrently: on the calling
     * thread and on up to one helper thread per further pipeline (at most the host's hardware
     * threads in all), all joined before it returns, so that creation takes about as long as the
     * slowest pipeline rather than their sum. pAllocationCallbacks and pipelineCache are then
     * used from several threads at once: a VkPipelineCache is safe for that unless it was
     * created with VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT, and allocation
     * callbacks must be thread-safe. With this flag every pipeline is compiled on the calling
     * thread, one after another, and no thread is started. */
    VKSORT_SORTER_CREATE_CALLING_THREAD_ONLY_BIT = 0x00000008,
    /* The instance was created with VK_EXT_debug_utils enabled. The sorter then names each of
     * its pipelines ("vksort " and the name vksortGetSorterPipelines gives) with
     * vkSetDebugUtilsObjectNameEXT, and every sort it records opens a label around itself
     * ("vksort: sort of <key> keys[ with <value> values]") and one around each group of steps
     * (e.g. "vksort: tile counts", "vksort: pass 3 (scan, reorder)", "vksort: count copy" for an
     * indirect count without push descriptors) with vkCmdBeginDebugUtilsLabelEXT and vkCmdEndDebugUtilsLabelEXT, all
     * closed before the call returns, so that RenderDoc, Nsight or the validation layer show the
     * sort by name. The three functions are loaded through pfnGetInstanceProcAddr; when they
     * cannot be, vksortCreateSorter returns VK_ERROR_EXTENSION_NOT_PRESENT. Without this flag
     * vksort makes no debug-utils call. */
    VKSORT_SORTER_CREATE_DEBUG_UTILS_BIT = 0x00000010,
    /* The device was created with VK_KHR_push_descriptor enabled. Every sort by this sorter then
     * pushes its descriptors as it records (vkCmdPushDescriptorSetKHR, loaded through
     * pfnGetDeviceProcAddr; when it cannot be, vksortCreateSorter returns
     * VK_ERROR_EXTENSION_NOT_PRESENT), which lets a sort take its buffers in
     * VksortSortInfo::pBuffers instead of a bindings object (see BINDING MODEL). Bindings objects
     * of this sorter hold no descriptor sets, only their buffers. An indirect sort then needs no
     * copy of the count; each dispatch and the recording may take longer than with bound sets,
     * depending on the driver (docs/PERFORMANCE.md, "Buffers at record time"). */
    VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT = 0x00000020,
    /* The sorter also compiles the segmented sort's pipelines (six per served format, two per key
     * width and one more), which vksortCmdSortSegments needs; without this flag it returns
     * VK_ERROR_VALIDATION_FAILED_EXT. Its scratch has room for a few more tiles and for the
     * segments' lists (VksortMemoryRequirements::scratch). */
    VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT = 0x00000040,
    VKSORT_SORTER_CREATE_FLAG_BITS_MAX_ENUM = 0x7FFFFFFF
} VksortSorterCreateFlagBits;

typedef struct VksortSorterCreateInfo {
    /* Reserved for extensions; must be NULL. */
    const void* pNext;
    /* VksortSorterCreateFlagBits; 0 for none. */
    VksortSorterCreateFlags flags;
    /* The apiVersion your VkInstance was created with (VkApplicationInfo::apiVersion); at least
     * VK_API_VERSION_1_1. */
    uint32_t apiVersion;
    /* The instance vksort loads its functions through (pfnGetInstanceProcAddr) and the physical
     * device whose properties and limits it plans for. */
    VkInstance instance;
    VkPhysicalDevice physicalDevice;
    /* The device the sort will run on. It must have been created from physicalDevice. */
    VkDevice device;
    /* How vksort loads Vulkan: it calls no global vk* function, only what these return. Required
     * (NULL is invalid usage). (With volk: pass vkGetInstanceProcAddr and vkGetDeviceProcAddr
     * after volkLoadInstance.) */
    PFN_vkGetInstanceProcAddr pfnGetInstanceProcAddr;
    /* Optional: NULL fetches it through pfnGetInstanceProcAddr. */
    PFN_vkGetDeviceProcAddr pfnGetDeviceProcAddr;
    /* Optional host allocation callbacks for the Vulkan objects vksort creates. */
    const VkAllocationCallbacks* pAllocationCallbacks;
    /* Optional pipeline cache used when the sorter compiles its pipelines. Creation compiles
     * every pipeline the served formats need (7 to 36, 9 to 43 when skipping constant digits;
     * VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT adds 9 to 41: six per format, two per key width
     * and one more; see keyTypes), concurrently unless
     * VKSORT_SORTER_CREATE_CALLING_THREAD_ONLY_BIT is set; that is the driver's shader
     * compilation and the bulk of vksortCreateSorter's time (docs/PERFORMANCE.md has
     * measurements). A cache filled by an earlier run (vkGetPipelineCacheData) lets the driver
     * skip that compilation; so does the driver's own disk cache, where it has one. */
    VkPipelineCache pipelineCache;
    /* 0 lets the driver choose. Otherwise a power of two within the device's
     * [minSubgroupSize, maxSubgroupSize] for compute; requires
     * VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT. A size the device cannot require returns
     * VK_ERROR_FEATURE_NOT_PRESENT (with the reason given to pfnMessageCallback). Meant for
     * testing and tuning. */
    uint32_t requiredSubgroupSize;
    /* Tuning overrides; 0 takes the default chosen for the device. The workgroup size is the
     * invocations per workgroup of the reorder kernel (a power of
     * two from 16 to the device's limit: maxComputeWorkGroupInvocations and
     * maxComputeWorkGroupSize[0], and with a requiredSubgroupSize also
     * maxComputeWorkgroupSubgroups x requiredSubgroupSize); keys per thread (1 to 32) sets the
     * tile (workgroup size * keys per thread keys: at most 65536, and they must fit the device's
     * shared memory), which the tile-counts kernel counts in workgroups of the same size or, as
     * the device's tuning chooses, of that size divided by a power of two, each invocation
     * counting as many times more keys (every current tuning row: half the invocations). Out of range:
     * VK_ERROR_FEATURE_NOT_PRESENT, with the reason given to pfnMessageCallback. */
    uint32_t workgroupSize;
    uint32_t keysPerThread;
    /* Optional; see PFN_vksortMessageCallback. */
    PFN_vksortMessageCallback pfnMessageCallback;
    void* pMessageUserData;
    /* The formats this sorter serves: VKSORT_KEY_TYPE_BIT / VKSORT_VALUE_TYPE_BIT of each key
     * and value type you will sort; 0 means all of them. Only the pipelines those need are
     * compiled: per key width crossed with no values, 32-bit values (uint32 and index) or
     * 64-bit values a compare sort, two single-workgroup sorts (on the tile of
     * singleDispatchMaxCount keys and on the main tile, tileSize), a merge step and a reorder,
     * and for 64-bit keys, where the tuning row and the device's shared memory allow, a chunk
     * sort by comparisons; per key width the tile counts; one shared scan. A renderer that sorts
     * f32 depths with u32 indices pays for 7 pipelines instead of up to 36. Memory requirements
     * and bindings of a format the sorter does not serve are invalid usage. Unknown bits are
     * invalid usage. */
    uint32_t keyTypes;
    uint32_t valueTypes;
} VksortSorterCreateInfo;

/* Creates a sorter: checks the device, compiles the pipelines (this can take a while; pass a
 * pipeline cache to reuse the work; they are compiled on several threads at once unless
 * VKSORT_SORTER_CREATE_CALLING_THREAD_ONLY_BIT is set, and those threads have ended when it
 * returns). Returns VK_ERROR_INITIALIZATION_FAILED for an instance
 * or device below Vulkan 1.1, an entry point the proc-address functions cannot load or a
 * shader variant missing from the library, VK_ERROR_EXTENSION_NOT_PRESENT when a flag's
 * functions cannot be loaded (VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT,
 * VKSORT_SORTER_CREATE_DEBUG_UTILS_BIT), VK_ERROR_FEATURE_NOT_PRESENT when the device lacks
 * a required subgroup capability, when VKSORT_SORTER_CREATE_SUBGROUP_SIZE_CONTROL_BIT is set on
 * a device without subgroup size control (see there), when requiredSubgroupSize is set without
 * that flag, when an override (requiredSubgroupSize, workgroupSize, keysPerThread) does not fit
 * the device, when the device allows fewer storage buffers per shader stage than the sorter's
 * pipelines bind (DEVICE REQUIREMENTS), or when the device's limits (a subgroup size of 0, a workgroup limit below 16,
 * too little shared memory) hold no tile at all, VK_ERROR_OUT_OF_HOST_MEMORY, the error of the
 * Vulkan call that failed (the message callback names each), or VK_ERROR_VALIDATION_FAILED_EXT
 * for invalid usage (NULL pointers or handles, a non-NULL pNext, unknown flags or format bits). */
VkResult vksortCreateSorter(const VksortSorterCreateInfo* pCreateInfo, VksortSorter* pSorter);

/* Destroys a sorter. Every VksortBindings created from it must be destroyed first (otherwise
 * invalid usage: the sorter is left alive), and no pending command buffer may still use it.
 * NULL is ignored. */
void vksortDestroySorter(VksortSorter sorter);

/* Facts about a sorter, for logs and for tests. */
typedef struct VksortSorterProperties {
    /* Invocations per workgroup and keys per invocation of the reorder kernel (the tile-counts
     * kernel counts the same tile, in workgroups of the same size or of fewer invocations with
     * more keys each: see VksortSorterCreateInfo::workgroupSize). */
    uint32_t workgroupSize;
    uint32_t keysPerThread;
    /* Keys per workgroup tile (workgroupSize * keysPerThread). */
    uint32_t tileSize;
    /* Sorts of at most this many keys run inside one workgroup (the single-workgroup sort: every
     * pass, up to tileSize keys on the main tile in fewer steps per pass; or, for the pass counts
     * that give the merge sort's chunks to comparisons, see mergeSortMaxCount, by comparisons on
     * a tile of this many keys; on every tuning row 64-bit keys over all 16 passes up to
     * tileSize keys, over at least 9 above): one dispatch in a
     * vksortCmdSort that the compare sort does not take (see compareSortMaxCount and
     * vksortTakesCompareSort); vksortCmdSortIndirect, on bindings whose capacity the compare sort
     * does not take, records the tile counts, which read the count and launch it, before it,
     * after a count copy without push descriptors, and with bindings of at most this capacity
     * nothing after it (with larger bindings that the merge sort takes, see mergeSortMaxCount,
     * the same dispatch sorts its chunks). */
    uint32_t singleDispatchMaxCount;
    /* The subgroup size the pipelines were created for (the required size, or the device's
     * default), and the smallest one the shared arrays are sized for (narrower subgroups still
     * sort correctly, more slowly). */
    uint32_t subgroupSize;
    uint32_t minSubgroupSize;
    /* The largest capacity for 32-bit and 64-bit keys with 64-bit values, the tightest case
     * (reported whichever formats the sorter serves): bounded by maxStorageBufferRange (one
     * binding holds a whole array of keys or values: maxStorageBufferRange / 8 for 64-bit values),
     * by maxComputeWorkGroupCount[0] x [1] tiles (one workgroup per tile), by 2^32 - 1 minus one
     * tile (positions are 32-bit) and by the counts tables of that many tiles fitting one binding
     * (they always do in practice). Narrower values or none allow more; vksortGetMaxCount gives the
     * exact maximum of each key and value type. */
    uint32_t maxCount32;
    uint32_t maxCount64;
    /* The flags the sorter was created with (VksortSorterCreateInfo::flags). */
    VksortSorterCreateFlags flags;
    /* The compare sort's limit: the most keys it takes, the device's tuning row's (8192 on NVIDIA
     * GPUs with 32-wide subgroups and at least 48 KiB of shared memory; 2048 elsewhere, where
     * with a tileSize of 2048 only bit ranges of an odd pass count take it). A
     * vksortCmdSort of `count` keys over P passes, of the key's K (8 for 32-bit keys, 16 for
     * 64-bit), compares every pair of keys instead of running passes where count <=
     * compareSortMaxCount and count <= compareSortShareCount * P / K (its cost does not shrink
     * with the passes, while that of the sorts it stands in for does) and, for an even P,
     * count > tileSize (vksortTakesCompareSort). One dispatch places each key (and value) in the
     * scratch buffer's copies; where the result belongs in your ranges (an even P, see
     * VksortSortResult) a second copies it there, behind a barrier. A one-dispatch sort has
     * none, so that sorts recorded one after another without barriers between them, into ranges
     * of their own, may overlap on the GPU: hence the single-workgroup sort on the main tile for
     * counts of up to tileSize of an even P (above, the compare sort and its copy take about half
     * the single-workgroup sort's time on a tile of singleDispatchMaxCount keys, or less). Its work
     * grows with the square of the count, hence the low limit.
     * vksortCmdSortIndirect takes it where the rule holds for the bindings' maxCount
     * (vksortTakesCompareSort of maxCount), whatever the count read: its tile counts, one workgroup,
     * read the count and launch both dispatches for it. vksortCmdSortSegments never takes it. */
    uint32_t compareSortMaxCount;
    /* The merge sort's limit for 32-bit keys (mergeSortMaxCount64: for 64-bit keys): the device's
     * tuning row's (65536 on every row, for both widths), at most 16 chunks of
     * singleDispatchMaxCount keys; 0 where that is no more than one chunk or the merge step's
     * shared memory does not fit the device. A vksortCmdSort of `count` keys over P >= 2 passes,
     * of the key's K, that the compare sort does not take, with singleDispatchMaxCount < count <=
     * that limit * P / K (its merge step costs the same whatever the passes; one pass is two
     * dispatches already; vksortTakesMergeSort), takes two dispatches with a barrier between them
     * instead of one more than a dispatch per pass: a workgroup per chunk sorts each chunk of
     * singleDispatchMaxCount keys, either by every pass as the single-workgroup sort does (chunks
     * of tileSize keys where 16 such chunks hold the count, or an indirect sort's maxCount) or, for
     * the pass counts the device's tuning row gives where its shared memory fits (every row: 64-bit
     * keys over at least 9 passes, over 16 where tileSize chunks would hold the count), by
     * comparisons: sorted runs merged pairwise in shared memory, equal keys in input order; then
     * the merge step places each key after the keys of every chunk that go ahead of it, found by
     * binary searches. The chunks lie in the other buffer of the pair from where the result
     * belongs. vksortCmdSortIndirect takes it where the rule holds for the bindings' maxCount
     * (vksortTakesMergeSort of maxCount), whatever the count read: its tile counts, one
     * workgroup, read the count and launch both dispatches for it. vksortCmdSortSegments never
     * takes it. */
    uint32_t mergeSortMaxCount;
    /* The count whose share P / K a bit range of P of the key's K passes gives the compare sort
     * (see compareSortMaxCount): the device's tuning row's (12288 on NVIDIA GPUs with 32-wide
     * subgroups and at least 48 KiB of shared memory, where a few passes' sorts cost less than
     * the compare sort only from there; compareSortMaxCount elsewhere). */
    uint32_t compareSortShareCount;
    /* The merge sort's limit for 64-bit keys: see mergeSortMaxCount. */
    uint32_t mergeSortMaxCount64;
} VksortSorterProperties;

/* Fills *pProperties (pure query). NULL sorter or pProperties is invalid usage: the assert
 * handler is called and nothing is written. */
void vksortGetSorterProperties(VksortSorter sorter, VksortSorterProperties* pProperties);

/* Whether vksortCmdSort of `count` keys of `keyType` over `passCount` passes
 * (VksortSortResult::passCount) takes the compare sort on a sorter with these properties: the
 * rule under compareSortMaxCount, which the library applies through this function
 * (vksortCmdSortIndirect to the bindings' maxCount). */
static inline VkBool32 vksortTakesCompareSort(const VksortSorterProperties* pProperties, VksortKeyType keyType,
                                              uint32_t passCount, uint32_t count) {
    const uint32_t keyPasses = vksortKeySize(keyType) * 2u;
    const uint64_t share = (uint64_t)pProperties->compareSortShareCount * passCount / keyPasses;
    const uint64_t limit = share < pProperties->compareSortMaxCount ? share : pProperties->compareSortMaxCount;
    const int oddPasses = passCount % 2u == 1u;
    const int aboveMainTile = count > pProperties->tileSize;
    return count <= limit && (oddPasses || aboveMainTile) ? VK_TRUE : VK_FALSE;
}

/* Whether vksortCmdSort of `count` keys of `keyType` over `passCount` passes takes the merge sort
 * on a sorter with these properties: the rule under mergeSortMaxCount, which the library applies
 * through this function (vksortCmdSortIndirect to the bindings' maxCount). */
static inline VkBool32 vksortTakesMergeSort(const VksortSorterProperties* pProperties, VksortKeyType keyType,
                                            uint32_t passCount, uint32_t count) {
    const uint32_t keyPasses = vksortKeySize(keyType) * 2u;
    const uint32_t maxCount = vksortKeySize(keyType) == 8u ? pProperties->mergeSortMaxCount64 : pProperties->mergeSortMaxCount;
    const uint64_t limit = (uint64_t)maxCount * passCount / keyPasses;
    if (passCount < 2u || vksortTakesCompareSort(pProperties, keyType, passCount, count)) return VK_FALSE;
    return count > pProperties->singleDispatchMaxCount && count <= limit ? VK_TRUE : VK_FALSE;
}

/* The largest maxCount vksortGetMemoryRequirements and vksortCreateBindings accept for this key
 * and value type on this sorter's device (pure query; 0 for an unknown type or one the sorter
 * does not serve, see VksortSorterCreateInfo::keyTypes). A NULL sorter is invalid usage: the
 * assert handler is called, and 0 is returned if it returns. */
uint32_t vksortGetMaxCount(VksortSorter sorter, VksortKeyType keyType, VksortValueType valueType);

/* One compute pipeline of a sorter. */
typedef struct VksortPipelineInfo {
    /* The shader variant it runs, e.g. "tile_counts_k1", "scan", "reorder_k1_v0",
     * "compare_sort_k1_v1" or "single_k2_v1_shuffle": the kernel, then the key width in
     * 32-bit words (k1, k2), the value width in 32-bit words (v0 none, v1, v2), "_shuffle" for
     * the variants of the single-workgroup sort and of the segmented sort's workgroup sorts built
     * on devices with subgroup shuffles (see DEVICE REQUIREMENTS), "_skip" for the tile-counts,
     * scan and reorder pipelines of a sorter created with
     * VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT, and after it
     * "_deciding" for that sorter's pipelines of the dispatch that decides which passes run
     * (e.g. "reorder_k1_v0_skip_deciding"); names that start with "segment_" are the segmented
     * sort's (VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT). Unique within the sorter; a NUL-terminated
     * string that lives as long as the sorter. With VKSORT_SORTER_CREATE_DEBUG_UTILS_BIT the
     * pipeline's debug-utils name is "vksort " and this. */
    const char* name;
    /* The pipeline, owned by the sorter: do not destroy it, and do not bind it yourself (its
     * descriptor sets and push constants are vksort's). Valid until vksortDestroySorter. */
    VkPipeline pipeline;
} VksortPipelineInfo;

/* Lists every compute pipeline the sorter created, for profilers and tuning tools (with
 * VKSORT_SORTER_CREATE_CAPTURE_STATISTICS_BIT, for vkGetPipelineExecutableStatisticsKHR).
 * Vulkan's two-call idiom: with pPipelines NULL, *pPipelineCount receives the number of
 * pipelines and VK_SUCCESS is returned; otherwise *pPipelineCount is the capacity of pPipelines
 * on entry and the number written on return, and VK_INCOMPLETE is returned when that capacity
 * was smaller than the number of pipelines. The order is the same on every call. sorter and
 * pPipelineCount must not be NULL. */
VkResult vksortGetSorterPipelines(VksortSorter sorter, uint32_t* pPipelineCount, VksortPipelineInfo* pPipelines);

/* ---- Memory -------------------------------------------------------------------------------- */

/* What you will sort: the capacity and the format of the buffers. */
typedef struct VksortMemoryRequirementsInfo {
    /* Reserved for extensions; must be NULL. */
    const void* pNext;
    /* The largest count you will sort with these buffers; at least 1, and at most
     * vksortGetMaxCount for this key and value type. */
    uint32_t maxCount;
    /* The format: one the sorter serves (VksortSorterCreateInfo::keyTypes, valueTypes). */
    VksortKeyType keyType;
    VksortValueType valueType;
} VksortMemoryRequirementsInfo;

typedef struct VksortBufferRequirements {
    /* Bytes the range must hold (0: this buffer is not used). */
    VkDeviceSize size;
    /* The range's offset inside its VkBuffer must be a multiple of this, in bytes: the device's
     * minStorageBufferOffsetAlignment (every range is bound as a storage buffer), rounded up to a
     * multiple of the value size for values and of 16 for keys (they are read 16 bytes at a
     * time); for scratch the larger of minStorageBufferOffsetAlignment and
     * minUniformBufferOffsetAlignment, rounded up to a multiple of 16 (part of it is also bound as
     * a uniform buffer). */
    VkDeviceSize alignment;
    /* Usage flags the VkBuffer must have been created with. */
    VkBufferUsageFlags usage;
} VksortBufferRequirements;

typedef struct VksortMemoryRequirements {
    /* Your keys: maxCount keys of 4 or 8 bytes. */
    VksortBufferRequirements keys;
    /* Your values: maxCount values of 4 or 8 bytes (4 for VKSORT_VALUE_TYPE_INDEX); size 0
     * without values. */
    VksortBufferRequirements values;
    /* Scratch space owned by the sort while it runs: the second buffer of each ping-pong pair
     * (as large as keys plus values), the digit totals, the scan's range totals and their
     * varying bits (5.6 KiB), the tile tables (200 bytes per tile of VksortSorterProperties::
     * tileSize keys: three tables of its 16 digit counts, and its varying bits), the passes that
     * run with each pass's launch arguments and a spare range of the same size, and an indirect
     * sort's launch arguments (together 1.2-1.9 KiB, with the device's offset alignment); for a sorter
     * created with VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT the tile tables have room for one more
     * tile per singleDispatchMaxCount + 1 keys (VksortSorterProperties), as segments start tiles
     * of their own, and the tables end with the segments' lists (vksortCmdSortSegments): 4 bytes
     * per tile, up to 32 KiB of counts, and 8 bytes per 129 keys, 8 per 513, 8 per tileSize + 1
     * and 12 per singleDispatchMaxCount + 1 keys: with the extra tiles about 0.14 bytes per key of
     * maxCount; for a
     * sorter created with VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT the first 80 bytes of
     * that range (which passes run) are also bound as a uniform buffer (the reported usage and
     * alignment allow it for every sorter, so one scratch buffer serves either kind). Its contents
     * need no initialization and are garbage afterwards, except where a sort with an odd pass
     * count left its result (see VksortSortResult). The reported usage is storage, uniform,
     * indirect and transfer-destination. vksortCmdSortIndirect uses storage and indirect, and
     * transfer-destination for the count's copy where the sorter does not push its descriptors;
     * vksortCmdSort storage alone, and vksortCmdSortSegments storage, with offsets indirect too.
     * A sorter that skips constant digits adds uniform to each, and indirect to vksortCmdSort. */
    VksortBufferRequirements scratch;
} VksortMemoryRequirements;

/* Pure query: fills the sizes, alignments and usage flags for pInfo. Returns
 * VK_ERROR_VALIDATION_FAILED_EXT (through the assert handler) for a maxCount of 0 or above
 * vksortGetMaxCount for that format, or a format the sorter does not serve. */
VkResult vksortGetMemoryRequirements(VksortSorter sorter, const VksortMemoryRequirementsInfo* pInfo,
                                     VksortMemoryRequirements* pRequirements);

/* ---- Bindings ------------------------------------------------------------------------------ */

/* A range of a VkBuffer: `size` bytes from `offset`. vksort cannot ask Vulkan how large a
 * buffer is, so it trusts these numbers: they must lie inside the buffer. VK_WHOLE_SIZE is not
 * a size here (invalid usage). */
typedef struct VksortBufferRange {
    VkBuffer buffer;
    VkDeviceSize offset;
    VkDeviceSize size;
} VksortBufferRange;

typedef struct VksortBindingsCreateInfo {
    /* Reserved for extensions; must be NULL. */
    const void* pNext;
    /* Capacity and format, as given to vksortGetMemoryRequirements. */
    uint32_t maxCount;
    VksortKeyType keyType;
    VksortValueType valueType;
    /* Each range must be at least the size the requirements report, its offset a multiple of
     * the reported alignment, its buffer created with the reported usage. Ranges must not
     * overlap. `values` is ignored (leave it zeroed) for VKSORT_VALUE_TYPE_NONE. */
    VksortBufferRange keys;
    VksortBufferRange values;
    VksortBufferRange scratch;
} VksortBindingsCreateInfo;

/* Creates the descriptor sets for one set of buffers. Returns the error of the failing Vulkan
 * call (explained through the sorter's pfnMessageCallback), VK_ERROR_OUT_OF_HOST_MEMORY, or
 * VK_ERROR_VALIDATION_FAILED_EXT for invalid usage: NULL pointers, a non-NULL pNext, what
 * vksortGetMemoryRequirements refuses (maxCount, format), or invalid or overlapping ranges. */
VkResult vksortCreateBindings(VksortSorter sorter, const VksortBindingsCreateInfo* pCreateInfo,
                              VksortBindings* pBindings);

/* Destroys bindings no pending command buffer uses any more; sorter must be the one that created
 * them. NULL is ignored. */
void vksortDestroyBindings(VksortSorter sorter, VksortBindings bindings);

/* ---- Sorting ------------------------------------------------------------------------------- */

/* endBit value meaning "the width of the key" (32 or 64). */
#define VKSORT_KEY_WIDTH 0u

typedef struct VksortSortInfo {
    /* Reserved for extensions; must be NULL. */
    const void* pNext;
    /* The buffers, one of two ways (see BINDING MODEL): bindings created by vksortCreateBindings
     * with this same sorter (pBuffers NULL), or pBuffers (bindings VK_NULL_HANDLE, below).
     * "The bindings" below means whichever is given. */
    VksortBindings bindings;
    /* Keys (and values) to sort, from the start of the ranges; at most the bindings' maxCount.
     * 0 records no dispatch (only the timestamps, when a query pool is given). */
    uint32_t count;
    /* Ascending or descending; either is stable. */
    VksortOrder order;
    /* Sort by bits [beginBit, endBit) of the key only (bit 0 is the least significant bit of
     * the key's integer or IEEE bit pattern); keys equal in those bits keep their input order.
     * endBit = VKSORT_KEY_WIDTH means up to the top bit. The range must not be empty and must
     * lie within the key. One pass runs per 4 bits of the range, rounded up.
     * For signed and floating-point keys the order applies to the bits after they are mapped
     * to an order-preserving unsigned form (sign bit flipped; for negative floats, all bits),
     * so a range that excludes the top bit sorts by a slice of that form. */
    uint32_t beginBit;
    uint32_t endBit;
    /* Optional profiling for your GPU profiler. When not VK_NULL_HANDLE, the sort writes
     * vksortTimestampQueryCount(passCount) timestamps into this VK_QUERY_TYPE_TIMESTAMP pool,
     * from query firstTimestampQuery on: query 0 when every command recorded before the sort
     * has completed, query 1 when its tile-counts dispatch has completed, and query 2 + p when
     * the reorder dispatch of pass p (and the scan before it) has completed (all with
     * VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT). Differences of consecutive queries time each step,
     * in ticks of VkPhysicalDeviceLimits::timestampPeriod nanoseconds. Sorts that the
     * single-workgroup or the compare sort takes (VksortSorterProperties) are one or two
     * dispatches, all before query 1, and every later query repeats its time; the merge sort's
     * chunk sort completes at query 1 and its merge step at query 2, which every later query
     * repeats; the query of a dispatch that does not run repeats the time of the one before it.
     * Every query is written for every sort, a count of 0 included. vksortCmdSortIndirect
     * records its count copy (without push descriptors) before the tile counts and its
     * single-workgroup dispatch after them, all before query 1.
     * The pool must hold those queries (vksort cannot check; firstTimestampQuery plus their number
     * past UINT32_MAX is invalid usage), they must have been reset (vkCmdResetQueryPool), and the
     * queue family must support timestamps. */
    VkQueryPool timestampQueryPool;
    uint32_t firstTimestampQuery;
    /* For a sorter created with VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT, instead of bindings:
     * the buffers themselves, with their capacity and format, checked as vksortCreateBindings
     * checks them and read only during the call (NULL when bindings is given). */
    const VksortBindingsCreateInfo* pBuffers;
} VksortSortInfo;

/* Number of timestamp queries a sort of passCount passes writes (2 + passCount). */
static inline uint32_t vksortTimestampQueryCount(uint32_t passCount) { return 2u + passCount; }

/* Where the sorted keys and values are. With an even pass count they are back in your keys and
 * values ranges; with an odd one they are in the scratch buffer. Either way the other buffer's
 * contents are undefined. The location depends only on the pass count, never on the count. */
typedef struct VksortSortResult {
    /* The digit passes planned, one per 4 bits of the bit range (rounded up); where the result
     * lands follows from it (a sorter that skips constant digits leaves out an even number of
     * them, so its result lands in the same place). */
    uint32_t passCount;
    /* VK_TRUE when the result is in the scratch buffer. */
    VkBool32 inScratch;
    /* The ranges holding the sorted keys and values (values.buffer is VK_NULL_HANDLE without
     * values); each range has the bindings' capacity, the first `count` elements are sorted. */
    VksortBufferRange keys;
    VksortBufferRange values;
} VksortSortResult;

/* Pure query: where vksortCmdSort or vksortCmdSortIndirect with this info leaves its result.
 * pInfo->count is not read (the location depends only on the pass count). Returns VK_SUCCESS, or
 * VK_ERROR_VALIDATION_FAILED_EXT for what vksortCmdSort refuses other than the count, or a NULL
 * pResult. */
VkResult vksortGetSortResult(VksortSorter sorter, const VksortSortInfo* pInfo, VksortSortResult* pResult);

/* Records the sort of pInfo->count keys (and values) into commandBuffer, which must be in the
 * recording state, outside a render pass, on a queue family with compute support. Nothing is
 * submitted, waited for or allocated. Counts that the single-workgroup, the compare or the merge
 * sort takes (see VksortSorterProperties) are one or two dispatches (see ALGORITHM). See SYNCHRONIZATION
 * CONTRACT above for the barriers you own. pResult (optional) receives vksortGetSortResult's
 * answer. Returns VK_SUCCESS, or VK_ERROR_VALIDATION_FAILED_EXT for invalid usage (both or
 * neither of bindings and pBuffers, pBuffers for a sorter created without
 * VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT, buffers that vksortCreateBindings would refuse, a
 * count above the bindings' maxCount, an invalid bit range...), in which case nothing is
 * recorded. */
VkResult vksortCmdSort(VkCommandBuffer commandBuffer, VksortSorter sorter, const VksortSortInfo* pInfo,
                       VksortSortResult* pResult);

/* Like vksortCmdSort, but the number of keys is read from the GPU when the commands execute:
 * the uint32_t at byte offset countOffset (a multiple of 4) of countBuffer, which needs
 * VK_BUFFER_USAGE_STORAGE_BUFFER_BIT for a sorter created with
 * VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT and VK_BUFFER_USAGE_TRANSFER_SRC_BIT otherwise (both
 * serve either). pInfo->count is ignored. A count above the bindings'
 * maxCount is clamped to maxCount: the first maxCount keys are sorted and nothing past the
 * ranges is touched. Launches are sized on the GPU from the count (no host round trip): the
 * first dispatch, the tile counts, launches a workgroup per tile of maxCount (those past the
 * count return at once), every later one only the work the count needs (the compare sort's copy
 * back as many workgroups as the compare sort, those past the count returning at once), and the
 * dispatches of the path a count does not take (the single-workgroup sort, or the passes) no
 * workgroup. What is
 * recorded depends on the bindings' maxCount, which bounds the count: where the compare sort's
 * rule holds for maxCount (see compareSortMaxCount), the tile counts (one workgroup, which reads
 * the count and launches the rest), the compare sort and, for an even pass count, its copy back;
 * else up to singleDispatchMaxCount the tile counts (one workgroup) and the single-workgroup
 * sort; where the merge sort's rule holds for maxCount (see mergeSortMaxCount), the tile counts
 * (one workgroup) and the merge sort's chunk sort and merge step; while
 * maxCount's tiles are few enough for every reorder to sum their counts itself (2^21 keys on
 * NVIDIA, 2^19 elsewhere, with the default tile) no scan step; above, a scan step per pass, which
 * launches nothing when the count needs none. So bindings sized close to the counts you sort
 * cost the least.
 * In addition to vksortCmdSort's contract, the count is read first: with
 * VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT by a compute dispatch (make your write of it
 * available to VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT), otherwise by a
 * transfer command that copies it into the scratch buffer (make your write available to
 * VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT, and order the scratch buffer's
 * earlier use before VK_PIPELINE_STAGE_TRANSFER_BIT writes); if you rewrite the count later, wait
 * for that stage. Making it available to both stages serves either sorter. The sort
 * reads launch arguments from the scratch buffer (VK_ACCESS_INDIRECT_COMMAND_READ_BIT), which is
 * why scratch needs VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, and without push descriptors copies the
 * count into it, which is why it needs VK_BUFFER_USAGE_TRANSFER_DST_BIT.
 * A VK_NULL_HANDLE countBuffer, a countOffset that is not a multiple of 4 or whose
 * countOffset + 4 wraps, a count inside the scratch range's first
 * VksortMemoryRequirements::scratch.size bytes (which the sort may write), or what vksortCmdSort
 * refuses other than the count returns VK_ERROR_VALIDATION_FAILED_EXT and records nothing. */
VkResult vksortCmdSortIndirect(VkCommandBuffer commandBuffer, VksortSorter sorter, const VksortSortInfo* pInfo,
                               VkBuffer countBuffer, VkDeviceSize countOffset, VksortSortResult* pResult);

/* ---- Segmented sort ------------------------------------------------------------------------- */

/* The segments of vksortCmdSortSegments: independent runs of the bound keys (and values), each
 * sorted on its own. */
typedef struct VksortSegmentsInfo {
    /* Reserved for extensions; must be NULL. */
    const void* pNext;
    /* How many segments, at least 1 and at most 2^31; with segmentCountBuffer, the most there are. */
    uint32_t segmentCount;
    /* Uniform segments when not 0: segment s is keys [s * segmentSize, (s + 1) * segmentSize),
     * clamped to the count; offsetsBuffer is then ignored. */
    uint32_t segmentSize;
    /* Otherwise segmentCount + 1 uint32_t offsets at byte offset offsetsOffset (a multiple of 4)
     * of offsetsBuffer, read by the GPU when the sort executes: segment s is keys
     * [offsets[s], offsets[s + 1]). The offsets should not decrease. Each is clamped to the
     * count; the first segment whose end lies before its start is empty, and of the segments
     * after it only those of up to 128 keys (the tuning row's tiny segments, see
     * vksortCmdSortSegments) are sorted, the others left as they are in your buffers (where the
     * result is in the scratch buffer, their positions there are undefined); where segments
     * overlap, the keys and values in the overlap end up undefined (each one of those segments'
     * keys or values, some perhaps repeated and others lost). No offsets make the sort read or
     * write anything outside the bound ranges. Needs VK_BUFFER_USAGE_STORAGE_BUFFER_BIT and a sorter
     * created with VKSORT_SORTER_CREATE_PUSH_DESCRIPTORS_BIT, which reads them in place; write
     * them before the sort as you write its keys (SYNCHRONIZATION CONTRACT). */
    VkBuffer offsetsBuffer;
    VkDeviceSize offsetsOffset;
    /* VK_NULL_HANDLE, or with offsets a buffer whose uint32_t at byte offset segmentCountOffset (a
     * multiple of 4) the GPU reads when the sort executes: then the sort sorts that many segments,
     * at most segmentCount (which still sizes its launches), reads only their offsets and leaves
     * the keys of later segments as they are in your buffers (where the result is in the scratch
     * buffer, those positions of it are undefined); 0 sorts nothing. For segment counts decided on
     * the GPU, such as the visible emitters. Needs VK_BUFFER_USAGE_STORAGE_BUFFER_BIT (read in
     * place, as the offsets); write it before the sort as you write its keys. */
    VkBuffer segmentCountBuffer;
    VkDeviceSize segmentCountOffset;
} VksortSegmentsInfo;

/* Records a segmented sort: like vksortCmdSort, with pInfo->count keys (and values) bound, but
 * each segment of pSegments is sorted on its own, stably, by pInfo's order and bit range; values
 * of VKSORT_VALUE_TYPE_INDEX are each key's position in the whole range. The result lands where
 * vksortGetSortResult says for pInfo (by the pass count alone): within it each segment's keys
 * occupy the segment's positions. Keys outside every segment are left as they are in your
 * buffers, and where the result is in the scratch buffer those positions of it are undefined.
 * The sorter must have been created with VKSORT_SORTER_CREATE_SEGMENTED_SORT_BIT. Segments are
 * sorted by size class: up to 128 keys (the tuning row's) an invocation per key, in a bounded
 * grid whose workgroups take the segments in batches; up to 512 keys (the tuning row's), then up
 * to tileSize, then up to singleDispatchMaxCount (VksortSorterProperties), inside one workgroup
 * each, every pass, with a tile of that size; larger ones through the digit passes of
 * vksortCmdSort, with tiles that start at segment starts and offsets found within each segment,
 * so that a few large segments take about the time of one vksortCmdSort of their keys (one
 * through the passes: above the merge sort's limit, see mergeSortMaxCount). Uniform
 * segments (segmentSize clamped to the count) fill one class, and a shorter last one perhaps
 * another: only those classes' dispatches are recorded. By offsets, the
 * tiny segments' dispatch comes first, then two dispatches that list the other classes' segments
 * in the scratch buffer, then the other classes, launched from what those wrote
 * (vkCmdDispatchIndirect): a workgroup per listed segment, and per pass a workgroup per large
 * segments' tile, after a scan dispatch; a class above the largest segment there can be (the
 * count) is not recorded. The sort skips no passes (VKSORT_SORTER_CREATE_SKIP_CONSTANT_DIGITS_BIT
 * does not apply). With a timestamp query pool it writes vksortTimestampQueryCount(passCount)
 * queries: query 0 before, query 1 after the small segments' dispatches and the large ones'
 * first (their digit counts), query 2 + p after pass p's. Returns
 * VK_ERROR_VALIDATION_FAILED_EXT for what vksortCmdSort refuses, a NULL pSegments or a non-NULL
 * pSegments->pNext, a sorter
 * without the flag, segmentCount 0 or above 2^31, offsets without push descriptors or with a
 * VK_NULL_HANDLE buffer, an offsetsOffset that is not a multiple of 4 or whose offsets wrap or pass
 * maxStorageBufferRange, offsets inside the scratch range, or a segmentCountBuffer with uniform
 * segments, a segmentCountOffset that is not a multiple of 4 or wraps, or a segment count inside
 * the scratch range; nothing is recorded then. */
VkResult vksortCmdSortSegments(VkCommandBuffer commandBuffer, VksortSorter sorter, const VksortSortInfo* pInfo,
                               const VksortSegmentsInfo* pSegments, VksortSortResult* pResult);

/* ---- Invalid usage -------------------------------------------------------------------------- */

/* Called with a description of the invalid usage, on the calling thread. If it returns, the
 * vksort function that detected the misuse returns VK_ERROR_VALIDATION_FAILED_EXT. */
typedef void(VKAPI_PTR* PFN_vksortAssertHandler)(const char* message, void* pUserData);

/* Replaces the process-wide assert handler; NULL restores the default (print to stderr, then
 * abort()). Not synchronized with concurrent vksort calls: set it once at start-up. */
void vksortSetAssertHandler(PFN_vksortAssertHandler handler, void* pUserData);

#ifdef __cplusplus
}
#endif

#endif /* VKSORT_H */
