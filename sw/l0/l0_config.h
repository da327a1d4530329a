#pragma once
// The parameters of the L0 firmware (l0_firmware.h): its nested API and run output, mounted
// at `l0.`, and the cost of each step of its paths, mounted at `l0.costs.`
// (docs/nested-entry-exit.md). Entry and exit are sums of these steps times what each step
// carries: no cost stands for a whole entry or exit.
#include <string>

#include "models/params.h"
#include "sw/l0/run_output_policy.h"

namespace nestvp {

struct l0_config {
    std::string api = "v2";              // v1 (H_ENTER_NESTED) | v2 (H_GUEST_*)
    std::string run_output = "powervm";  // what H_GUEST_RUN_VCPU returns (run_output_policy.h)
    // How v2's L0 turns a DEC it reads into an expiry (L2's at exit, L1's at entry):
    // now-plus-dec as the DEC counts down (timer-facilities.md §2), or now-minus-dec as QEMU's
    // spapr_nested.c does (exit_nested_store_l2, nested_papr_run_vcpu: `now - load_decr`).
    std::string dec_expiry = "now-plus-dec";

    static void describe(param_list<l0_config>& p) {
        p.add_text("api", &l0_config::api, {"v1", "v2"},
                   "nested API: v1 H_ENTER_NESTED, v2 H_GUEST_* (nested-virtualization.md)");
        p.add_text("run_output", &l0_config::run_output, run_output_policy_names(),
                   "what H_GUEST_RUN_VCPU returns in the run output buffer");
        p.add_text("dec_expiry", &l0_config::dec_expiry, {"now-plus-dec", "now-minus-dec"},
                   "v2: how L0 turns a DEC it saves into an expiry: now + DEC (the DEC counts "
                   "down), or now - DEC as QEMU's spapr_nested.c does; restored as expiry - now");
    }
};

// N. Piggin, "KVM: PPC: Book3S HV P9: entry/exit optimisations" (nested-virtualization.md §9):
// native KVM-HV NULL hcall entry+exit about 4,700 cycles after the series.
inline constexpr const char* p9_null_hcall_source =
    "P9 NULL-hcall entry+exit ~4700 cycles, split in halves (nested-virtualization.md §9)";

struct l0_costs {
    cost_param hcall_entry{2350, p9_null_hcall_source};
    cost_param hcall_return{2350, p9_null_hcall_source};
    cost_param gsb_element{
        60, "assumption: a bounds check, a table lookup and a 64-bit copy", {20, 200}};
    cost_param gsb_byte{1, "assumption: a checked copy moves about one byte per cycle", {0, 4}};
    cost_param reg_move{10,
                        "assumption: a ld/std of a GPR is ~1-2 cycles, an mtspr/mfspr of a "
                        "context SPR 10-40",
                        {2, 40}};
    cost_param partition_switch{
        1500,
        "assumption: LPIDR, PIDR, LPCR and TB offset writes with the isync/ptesync they need; "
        "the sync alone was ~300 cycles of the P9 entry/exit (nested-virtualization.md §9)",
        {500, 5000}};
    cost_param timer_write{40, "assumption: mtDEC/mtHDEC, a non-serialising SPR write", {10, 200}};
    cost_param return_to_guest{300, "assumption: hrfid and the pipeline refill", {100, 1000}};
    cost_param exit_interrupt{
        500,
        "assumption: HV interrupt entry: HSRR0/1, vector fetch, scratch registers saved",
        {200, 2000}};
    cost_param get_state{1500, "assumption: hcall dispatch plus buffer lookup", {500, 5000}};
    cost_param set_state{1500, "assumption: hcall dispatch plus buffer lookup", {500, 5000}};
    cost_param guest_create{
        50000, "assumption: one-time set-up, not on any measured path", {10000, 500000}};
    cost_param cede{1000, "assumption: L0 marks the virtual processor idle", {300, 5000}};
    cost_param prod{
        3000, "assumption: wake-up IPI delivery to a ceded virtual processor", {1000, 10000}};

    static void describe(param_list<l0_costs>& p) {
        using c = l0_costs;
        p.add_cost("hcall_entry", &c::hcall_entry, "sc 1 from L1 into L0: trap, save, dispatch");
        p.add_cost("hcall_return", &c::hcall_return, "return from L0 to L1 after an hcall");
        p.add_cost("gsb_element", &c::gsb_element,
                   "read and validate, or compose, one guest state buffer element");
        p.add_cost("gsb_byte", &c::gsb_byte,
                   "one byte of a guest state buffer (or v1 hv_guest_state/pt_regs) moved");
        p.add_cost("reg_move", &c::reg_move,
                   "one register between L0's copy of the L2 state and the thread");
        p.add_cost("partition_switch", &c::partition_switch,
                   "switching the thread between the L1 and the L2 partition (each way)");
        p.add_cost("timer_write", &c::timer_write, "one DEC or HDEC write through the timer unit");
        p.add_cost("return_to_guest", &c::return_to_guest, "hrfid from L0 into L2");
        p.add_cost("exit_interrupt", &c::exit_interrupt,
                   "an L2 interrupt into L0 (HDEC, hcall, HDSI, ...)");
        p.add_cost("get_state", &c::get_state, "H_GUEST_GET_STATE handling, excluding elements");
        p.add_cost("set_state", &c::set_state, "H_GUEST_SET_STATE handling, excluding elements");
        p.add_cost("guest_create", &c::guest_create, "H_GUEST_CREATE / CREATE_VCPU / DELETE");
        p.add_cost("cede", &c::cede, "H_CEDE from an L1 vCPU: give up the thread");
        p.add_cost("prod", &c::prod, "waking a ceded L1 vCPU");
    }
};

}  // namespace nestvp
