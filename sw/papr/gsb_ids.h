#pragma once
// Guest-state-buffer element IDs (nested-virtualization.md §5.2-§5.3; Linux
// arch/powerpc/include/asm/guest-state-buffer.h KVMPPC_GSID_*; QEMU spapr_nested.c
// guest_state_element_types[]). The table is data: size, scope, read-only flag and write mask
// per ID. Every ID not in the table is unknown (H_INVALID_ELEMENT_ID).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nestvp {

// §5.2 scope classes. `guest_wide` needs H_GUEST_FLAGS_WIDE, `host_wide` needs
// H_GUEST_FLAGS_HOST_WIDE (GET only), `meta` and `thread` need neither (both are thread-wide
// requests; meta = run buffers and VPA).
enum class gsb_scope : uint8_t { any, guest_wide, host_wide, meta, thread };
const char* to_string(gsb_scope s);

struct gsb_id_info {
    uint16_t id;
    const char* name;  // Linux macro suffix, e.g. "HDEC_EXPIRY_TB", "GPR(3)"
    uint16_t size;     // value bytes; 0 for BLANK (any size)
    gsb_scope scope;
    bool read_only;       // SET of this ID is rejected (H_INVALID_ELEMENT_ID-class error)
    uint64_t write_mask;  // scalar IDs: bits kept on SET (QEMU HVMASK_*), ~0 otherwise
    bool thread_wide() const { return scope == gsb_scope::meta || scope == gsb_scope::thread; }
};

// Every known ID in ascending order (BLANK included).
const std::vector<gsb_id_info>& gsb_all_ids();
namespace detail {
const int16_t* gsb_dense_table();            // 65536 entries: dense index or -1
const gsb_id_info* const* gsb_info_table();  // 65536 entries: the ID's entry or nullptr
}  // namespace detail
// Dense index of a known ID in gsb_all_ids() (0..gsb_all_ids().size()-1), -1 when unknown.
// O(1) and inline (the run path looks up ~100 IDs per exit): stores keep one slot per ID.
inline int gsb_dense_index(uint16_t id) {
    static const int16_t* const table = detail::gsb_dense_table();
    return table[id];
}
// Lookup; nullptr for an unknown ID.
inline const gsb_id_info* gsb_find_id(uint16_t id) {
    static const gsb_id_info* const* const table = detail::gsb_info_table();
    return table[id];  // one load: the run path looks up every element it moves
}
// "HDEC_EXPIRY_TB (0x1020)" or "unknown (0x1234)".
std::string gsb_id_string(uint16_t id);

// Write masks (QEMU include/hw/ppc/spapr_nested.h; LPCR also in nested-virtualization.md §3.5).
constexpr uint64_t HVMASK_LPCR = 0x0070000003820800ull;
constexpr uint64_t HVMASK_MSR = 0xEBFFFFFFFFBFEFFFull;
constexpr uint64_t HVMASK_HDEXCR = 0x00000000FFFFFFFFull;
constexpr uint64_t HVMASK_TB_OFFSET = 0x000000FFFFFFFFFFull;  // §3.1: QEMU masks to 40 bits

namespace gsid {
// Guest-wide (0x0000-0x0006)
constexpr uint16_t BLANK = 0x0000;
constexpr uint16_t HOST_STATE_SIZE = 0x0001;
constexpr uint16_t RUN_OUTPUT_MIN_SIZE = 0x0002;
constexpr uint16_t LOGICAL_PVR = 0x0003;
constexpr uint16_t TB_OFFSET = 0x0004;
constexpr uint16_t PARTITION_TABLE = 0x0005;
constexpr uint16_t PROCESS_TABLE = 0x0006;
// Host-wide (0x0800-0x0804)
constexpr uint16_t L0_GUEST_HEAP = 0x0800;
constexpr uint16_t L0_GUEST_HEAP_MAX = 0x0801;
constexpr uint16_t L0_GUEST_PGTABLE_SIZE = 0x0802;
constexpr uint16_t L0_GUEST_PGTABLE_SIZE_MAX = 0x0803;
constexpr uint16_t L0_GUEST_PGTABLE_RECLAIM = 0x0804;
// Meta, thread (0x0C00-0x0C02)
constexpr uint16_t RUN_INPUT = 0x0C00;
constexpr uint16_t RUN_OUTPUT = 0x0C01;
constexpr uint16_t VPA = 0x0C02;
// 8-byte registers (0x1000-0x1053)
constexpr uint16_t gpr(unsigned n) {
    return static_cast<uint16_t>(0x1000 + n);
}  // n < 32
constexpr uint16_t GPR0 = 0x1000;
constexpr uint16_t GPR3 = 0x1003;
constexpr uint16_t GPR12 = 0x100C;
constexpr uint16_t GPR31 = 0x101F;
constexpr uint16_t HDEC_EXPIRY_TB = 0x1020;
constexpr uint16_t NIA = 0x1021;
constexpr uint16_t MSR = 0x1022;
constexpr uint16_t LR = 0x1023;
constexpr uint16_t XER = 0x1024;
constexpr uint16_t CTR = 0x1025;
constexpr uint16_t CFAR = 0x1026;
constexpr uint16_t SRR0 = 0x1027;
constexpr uint16_t SRR1 = 0x1028;
constexpr uint16_t DAR = 0x1029;
constexpr uint16_t DEC_EXPIRY_TB = 0x102A;
constexpr uint16_t VTB = 0x102B;
constexpr uint16_t LPCR = 0x102C;
constexpr uint16_t HFSCR = 0x102D;
constexpr uint16_t FSCR = 0x102E;
constexpr uint16_t FPSCR = 0x102F;
constexpr uint16_t DAWR0 = 0x1030;
constexpr uint16_t DAWR1 = 0x1031;
constexpr uint16_t CIABR = 0x1032;
constexpr uint16_t PURR = 0x1033;
constexpr uint16_t SPURR = 0x1034;
constexpr uint16_t IC = 0x1035;
constexpr uint16_t SPRG0 = 0x1036;  // SPRG0..3 = 0x1036..0x1039
constexpr uint16_t PPR = 0x103A;
constexpr uint16_t MMCR0 = 0x103B;  // MMCR0..3 = 0x103B..0x103E
constexpr uint16_t MMCRA = 0x103F;
constexpr uint16_t SIER = 0x1040;  // SIER, SIER2, SIER3 = 0x1040..0x1042
constexpr uint16_t BESCR = 0x1043;
constexpr uint16_t EBBHR = 0x1044;
constexpr uint16_t EBBRR = 0x1045;
constexpr uint16_t AMR = 0x1046;
constexpr uint16_t IAMR = 0x1047;
constexpr uint16_t AMOR = 0x1048;
constexpr uint16_t UAMOR = 0x1049;
constexpr uint16_t SDAR = 0x104A;
constexpr uint16_t SIAR = 0x104B;
constexpr uint16_t DSCR = 0x104C;
constexpr uint16_t TAR = 0x104D;
constexpr uint16_t DEXCR = 0x104E;
constexpr uint16_t HDEXCR = 0x104F;
constexpr uint16_t HASHKEYR = 0x1050;
constexpr uint16_t HASHPKEYR = 0x1051;
constexpr uint16_t CTRL = 0x1052;
constexpr uint16_t DPDES = 0x1053;
// 4-byte registers (0x2000-0x200E)
constexpr uint16_t CR = 0x2000;
constexpr uint16_t PIDR = 0x2001;
constexpr uint16_t DSISR = 0x2002;
constexpr uint16_t VSCR = 0x2003;
constexpr uint16_t VRSAVE = 0x2004;
constexpr uint16_t DAWRX0 = 0x2005;
constexpr uint16_t DAWRX1 = 0x2006;
constexpr uint16_t PMC1 = 0x2007;  // PMC1..6 = 0x2007..0x200C
constexpr uint16_t WORT = 0x200D;
constexpr uint16_t PSPB = 0x200E;
// 16-byte vectors (0x3000-0x303F)
constexpr uint16_t vsr(unsigned n) {
    return static_cast<uint16_t>(0x3000 + n);
}  // n < 64
// Interrupt info, read-only (0xF000-0xF003)
constexpr uint16_t HDAR = 0xF000;
constexpr uint16_t HDSISR = 0xF001;
constexpr uint16_t HEIR = 0xF002;
constexpr uint16_t ASDR = 0xF003;
}  // namespace gsid

// HEIR (0xF002) size: PAPR documentation 4, Linux 8, QEMU 4 (§5.3). We use 4 (documentation and
// QEMU agree; QEMU is the L0 the model follows in §6). See docs/guest-state-buffer.md.
constexpr uint16_t GSB_HEIR_SIZE = 4;

}  // namespace nestvp
