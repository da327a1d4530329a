// The element-ID table (nested-virtualization.md §5.2-§5.3), built once from ranges and names.
// Scopes and read-only flags follow QEMU spapr_nested_gsb_init(): 0x0001-0x0002 guest-wide RO,
// 0x0003-0x07FF guest-wide RW, 0x0800-0x0804 host-wide RO, 0x0C00-0xEFFF thread RW,
// 0xF000- thread RO. Masks: QEMU GSE_ENV_DWM / GSBE_NESTED_MSK entries.
#include "sw/papr/gsb_ids.h"

#include <algorithm>
#include <cstdio>

namespace nestvp {

namespace {

constexpr uint64_t all_bits = ~uint64_t{0};

std::vector<gsb_id_info> build_table() {
    std::vector<gsb_id_info> t;
    auto add = [&](uint16_t id, const char* name, uint16_t size, gsb_scope scope, bool ro,
                   uint64_t mask = all_bits) {
        t.push_back({id, name, size, scope, ro, mask});
    };
    // Names of ranged IDs are kept alive in static storage.
    static std::vector<std::string> names;
    names.reserve(32 + 64);
    auto ranged = [&](const char* stem, unsigned n) -> const char* {
        names.push_back(std::string(stem) + "(" + std::to_string(n) + ")");
        return names.back().c_str();
    };

    // Guest-wide. BLANK may appear in any request and carries any length (§5.3, QEMU skips it).
    add(gsid::BLANK, "BLANK", 0, gsb_scope::any, false);
    add(gsid::HOST_STATE_SIZE, "HOST_STATE_SIZE", 8, gsb_scope::guest_wide, true);
    add(gsid::RUN_OUTPUT_MIN_SIZE, "RUN_OUTPUT_MIN_SIZE", 8, gsb_scope::guest_wide, true);
    add(gsid::LOGICAL_PVR, "LOGICAL_PVR", 4, gsb_scope::guest_wide, false);
    add(gsid::TB_OFFSET, "TB_OFFSET", 8, gsb_scope::guest_wide, false, HVMASK_TB_OFFSET);
    add(gsid::PARTITION_TABLE, "PARTITION_TABLE", 24, gsb_scope::guest_wide, false);
    add(gsid::PROCESS_TABLE, "PROCESS_TABLE", 16, gsb_scope::guest_wide, false);
    // Host-wide L0 statistics (2025), GET only.
    add(gsid::L0_GUEST_HEAP, "L0_GUEST_HEAP", 8, gsb_scope::host_wide, true);
    add(gsid::L0_GUEST_HEAP_MAX, "L0_GUEST_HEAP_MAX", 8, gsb_scope::host_wide, true);
    add(gsid::L0_GUEST_PGTABLE_SIZE, "L0_GUEST_PGTABLE_SIZE", 8, gsb_scope::host_wide, true);
    add(gsid::L0_GUEST_PGTABLE_SIZE_MAX, "L0_GUEST_PGTABLE_SIZE_MAX", 8, gsb_scope::host_wide,
        true);
    add(gsid::L0_GUEST_PGTABLE_RECLAIM, "L0_GUEST_PGTABLE_RECLAIM", 8, gsb_scope::host_wide, true);
    // Meta (thread-wide).
    add(gsid::RUN_INPUT, "RUN_INPUT", 16, gsb_scope::meta, false);
    add(gsid::RUN_OUTPUT, "RUN_OUTPUT", 16, gsb_scope::meta, false);
    add(gsid::VPA, "VPA", 8, gsb_scope::meta, false);
    // 8-byte registers.
    for (unsigned n = 0; n < 32; ++n)
        add(gsid::gpr(n), ranged("GPR", n), 8, gsb_scope::thread, false);
    static const char* const dw[] = {
        "HDEC_EXPIRY_TB", "NIA",       "MSR",   "LR",    "XER",           "CTR",
        "CFAR",           "SRR0",      "SRR1",  "DAR",   "DEC_EXPIRY_TB", "VTB",
        "LPCR",           "HFSCR",     "FSCR",  "FPSCR", "DAWR0",         "DAWR1",
        "CIABR",          "PURR",      "SPURR", "IC",    "SPRG0",         "SPRG1",
        "SPRG2",          "SPRG3",     "PPR",   "MMCR0", "MMCR1",         "MMCR2",
        "MMCR3",          "MMCRA",     "SIER",  "SIER2", "SIER3",         "BESCR",
        "EBBHR",          "EBBRR",     "AMR",   "IAMR",  "AMOR",          "UAMOR",
        "SDAR",           "SIAR",      "DSCR",  "TAR",   "DEXCR",         "HDEXCR",
        "HASHKEYR",       "HASHPKEYR", "CTRL",  "DPDES"};
    static_assert(sizeof(dw) / sizeof(dw[0]) == 0x1053 - 0x1020 + 1, "0x1020..0x1053");
    for (unsigned i = 0; i < sizeof(dw) / sizeof(dw[0]); ++i) {
        const uint16_t id = static_cast<uint16_t>(0x1020 + i);
        uint64_t mask = all_bits;
        if (id == gsid::LPCR) mask = HVMASK_LPCR;
        if (id == gsid::MSR) mask = HVMASK_MSR;
        if (id == gsid::HDEXCR) mask = HVMASK_HDEXCR;
        add(id, dw[i], 8, gsb_scope::thread, false, mask);
    }
    // 4-byte registers.
    static const char* const w[] = {"CR",     "PIDR",   "DSISR", "VSCR", "VRSAVE",
                                    "DAWRX0", "DAWRX1", "PMC1",  "PMC2", "PMC3",
                                    "PMC4",   "PMC5",   "PMC6",  "WORT", "PSPB"};
    static_assert(sizeof(w) / sizeof(w[0]) == 0x200E - 0x2000 + 1, "0x2000..0x200E");
    for (unsigned i = 0; i < sizeof(w) / sizeof(w[0]); ++i)
        add(static_cast<uint16_t>(0x2000 + i), w[i], 4, gsb_scope::thread, false);
    // 16-byte vectors.
    for (unsigned n = 0; n < 64; ++n)
        add(gsid::vsr(n), ranged("VSR", n), 16, gsb_scope::thread, false);
    // Interrupt information, read-only.
    add(gsid::HDAR, "HDAR", 8, gsb_scope::thread, true);
    add(gsid::HDSISR, "HDSISR", 4, gsb_scope::thread, true);
    add(gsid::HEIR, "HEIR", GSB_HEIR_SIZE, gsb_scope::thread, true);
    add(gsid::ASDR, "ASDR", 8, gsb_scope::thread, true);

    std::sort(t.begin(), t.end(),
              [](const gsb_id_info& a, const gsb_id_info& b) { return a.id < b.id; });
    return t;
}

}  // namespace

const std::vector<gsb_id_info>& gsb_all_ids() {
    static const std::vector<gsb_id_info> table = build_table();
    return table;
}

const int16_t* detail::gsb_dense_table() {
    static const std::vector<int16_t> table = [] {
        std::vector<int16_t> t(65536, -1);
        const auto& ids = gsb_all_ids();
        for (size_t i = 0; i < ids.size(); ++i) t[ids[i].id] = static_cast<int16_t>(i);
        return t;
    }();
    return table.data();
}

const gsb_id_info* const* detail::gsb_info_table() {
    static const std::vector<const gsb_id_info*> table = [] {
        std::vector<const gsb_id_info*> t(65536, nullptr);
        for (const gsb_id_info& info : gsb_all_ids()) t[info.id] = &info;
        return t;
    }();
    return table.data();
}

std::string gsb_id_string(uint16_t id) {
    char hex[16];
    std::snprintf(hex, sizeof(hex), "0x%04X", id);
    const gsb_id_info* info = gsb_find_id(id);
    return std::string(info ? info->name : "unknown") + " (" + hex + ")";
}

const char* to_string(gsb_scope s) {
    switch (s) {
        case gsb_scope::any:
            return "any";
        case gsb_scope::guest_wide:
            return "guest-wide";
        case gsb_scope::host_wide:
            return "host-wide";
        case gsb_scope::meta:
            return "meta";
        case gsb_scope::thread:
            return "thread";
    }
    return "?";
}

}  // namespace nestvp
