#pragma once
// L1's cache of one L2 vCPU's state under nestedv2 (nested-virtualization.md §2.5,
// book3s_hv_nestedv2.c): a value per ID with "valid" and "dirty" bits. Every exit invalidates
// everything; the run-output buffer revalidates what L0 returned; reading an invalid ID costs
// one H_GUEST_GET_STATE with a single element (borrowing the run-input buffer); writes mark the
// ID dirty and travel in the next run-input buffer, with HDEC_EXPIRY_TB and LPCR always.
#include <cstdint>
#include <vector>

#include "models/cpu_if.h"
#include "models/memory_port.h"
#include "sw/papr/gsb_codec.h"
#include "sw/probes/nested_probe.h"

namespace nestvp {

struct l1_gsb_costs {
    double gsb_element;  // cycles (l1.costs.gsb_element)
};

class nestedv2_state_cache {
public:
    nestedv2_state_cache(cpu_if& thread, memory_port& mem, nested_probe& probe,
                         const l1_gsb_costs& costs);

    void attach(uint64_t guest, uint64_t vcpu, uint64_t input_addr, uint64_t input_size,
                uint64_t output_addr, uint64_t output_size);

    // kvmppc_get_*: the cached value, reloaded from L0 when not valid.
    uint64_t get(uint16_t id);
    // kvmppc_set_*: the new value, dirty until the next run.
    void set(uint16_t id, uint64_t value);
    bool valid(uint16_t id) const { return m_valid_gen[id] == m_valid_now; }
    // The value last loaded or set, valid or not, without a reload (a trace's pc).
    uint64_t peek(uint16_t id) const { return m_values[id]; }
    void mark_all_dirty(const std::vector<uint16_t>& ids);

    // kvmhv_nestedv2_flush_vcpu: writes the run-input buffer (dirty IDs, HDEC_EXPIRY_TB, LPCR).
    void flush(uint64_t hdec_expiry_tb, uint64_t lpcr);
    // After H_GUEST_RUN_VCPU: clear dirty and valid, then parse the run-output buffer.
    void after_run();
    // Sends dirty guest-wide values now (H_GUEST_SET_STATE with the wide flag).
    int64_t set_guest_wide(const std::vector<std::pair<uint16_t, std::vector<uint8_t>>>& elems);

    uint64_t reloads() const { return m_reloads; }
    // Inside kvmhv_p9_guest_entry (between guest_state_enter_irqoff and _exit_irqoff): a
    // function-entry kprobe on kvmppc_gsb_recv does not fire there (get-state-deduction.md §2b).
    void set_in_guest_state_window(bool in) { m_in_window = in; }

private:
    int64_t hcall(uint64_t nr, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8);

    cpu_if& m_thread;
    const unsigned m_id;  // m_thread.id()
    memory_port& m_mem;
    nested_probe& m_probe;
    l1_gsb_costs m_costs;
    uint64_t m_guest = 0, m_vcpu = 0;
    uint64_t m_in_addr = 0, m_in_size = 0, m_out_addr = 0, m_out_size = 0;
    // Dense per-ID arrays: an ID is valid/dirty when its mark equals the current generation,
    // so invalidating everything at each exit is one increment.
    std::vector<uint64_t> m_values;
    std::vector<uint32_t> m_valid_gen, m_dirty_gen;
    uint32_t m_valid_now = 1, m_dirty_now = 1;
    std::vector<uint16_t> m_dirty_ids;
    gsb_builder m_req;  // GET_STATE requests and run inputs, reused (see get())
    std::vector<uint8_t> m_scratch;
    std::vector<gsb_element> m_elems;
    uint64_t m_reloads = 0;
    bool m_in_window = false;
};

}  // namespace nestvp
