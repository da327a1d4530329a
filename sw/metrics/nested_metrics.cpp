#include "sw/metrics/nested_metrics.h"

namespace nestvp {

const char* counter_name(counter c) {
    static const char* const names[] = {"l0.hcalls",
                                        "l0.get_state",
                                        "l0.set_state",
                                        "l0.run_vcpu",
                                        "l0.enter_nested",
                                        "l0.l2_entries",
                                        "l0.immediate_exits",
                                        "l0.gsb_elements_in",
                                        "l0.gsb_elements_out",
                                        "l0.l1_cedes",
                                        "l1.guest_exits",
                                        "l1.early_returns",
                                        "l1.lazy_irq_returns",
                                        "l1.cedes",
                                        "l1.dec_dequeued",
                                        "l1.blocks",
                                        "l1.timer_wakes",
                                        "l1.set_timer",
                                        "l1.cache_reloads",
                                        "l1.get_state_unprobed",
                                        "l1.ticks",
                                        "l1.timer_interrupts",
                                        "l1.halt_poll_successes",
                                        "l1.halt_poll_misses",
                                        "l1.mmio_emulations",
                                        "l1.mmio_gpr_reloads",
                                        "l1.ipis",
                                        "l1.ipi_wakes",
                                        "l1.ipi_kicks",
                                        "l1.icp_hcalls",
                                        "l1.host_ipis",
                                        "l1.device_irqs",
                                        "l1.userspace_mmio",
                                        "l2.timer_interrupts",
                                        "l2.early_timer_interrupts",
                                        "l2.ticks",
                                        "l2.housekeeping",
                                        "l2.cedes",
                                        "l2.snoozes",
                                        "l2.snooze_timeouts",
                                        "l2.device_interrupts",
                                        "l2.irqchip_accesses",
                                        "l2.ipis_sent",
                                        "l2.ipis_skipped_polling",
                                        "l2.ipis_received",
                                        "l2.set_dec"};
    static_assert(sizeof(names) / sizeof(names[0]) == static_cast<unsigned>(counter::count_),
                  "every counter has a name");
    return names[static_cast<unsigned>(c)];
}

}  // namespace nestvp
