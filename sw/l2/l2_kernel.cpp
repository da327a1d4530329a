#include "sw/l2/l2_kernel.h"

#include <algorithm>

#include "models/log.h"
#include "models/power_insn.h"
#include "sw/common/event_spacing.h"
#include "sw/papr/papr.h"

namespace nestvp {

namespace {
// Synthetic kernel text addresses, so NIA/SRR0 say which path was interrupted.
constexpr uint64_t nia_idle = 0xc000000000020000ull;
constexpr uint64_t nia_cede = 0xc000000000020100ull;
constexpr uint64_t nia_snooze = 0xc000000000020200ull;
constexpr uint64_t nia_boot = 0xc000000000010000ull;
}  // namespace

l2_kernel::l2_kernel(cpu_if& thread, sw_context& ctx, const l2_params& params,
                     const l2_costs& costs, nested_probe& probe, workload* work,
                     guest_irq_queue& irqs, l2_sched_view& sched)
    : m_thread(thread),
      m_id(thread.id()),
      m_ctx(ctx),
      m_params(params),
      m_costs(costs),
      m_probe(probe),
      m_work(work),
      m_irqs(irqs),
      m_sched(sched),
      m_xive(params.irqchip == "emulated-xive"),
      m_rng(params.seed * 0x9E3779B97F4A7C15ull + params.vcpu + 1),
      m_ipi_rng(params.seed * 0x94D049BB133111EBull + params.vcpu + 1) {
    // decrementer_max = 2^(bits-1) - 1 (set_decrementer_max, §6); 32 bits without LD.
    const unsigned bits = params.large_dec ? params.dec_bits : 32;
    m_dec_max = (1ull << (bits - 1)) - 1;
    m_tick_period = thread.tb_freq_hz() / std::max(1u, params.hz);
    m_tb_per_us = static_cast<double>(thread.tb_freq_hz()) / 1e6;
    ctx.nia = nia_boot;
}

void l2_kernel::set_next_event(uint64_t delta) {
    // decrementer_set_next_event: decrementers_next_tb = TB + evt; set_dec(evt) writes evt - 1
    // so that the 0 -> -1 transition lands exactly evt ticks later (Book3S, §6).
    delta = std::clamp<uint64_t>(delta, m_params.clockevent_min_delta, m_dec_max);
    m_next_tb = mftb() + delta;
    m_thread.write_dec(delta - 1);
    m_probe.count(counter::l2_set_dec, m_id);
    exec(m_costs.set_dec.cycles);
}

void l2_kernel::program_next_event() {
    // The hrtimer/tick core: the next event is the tick (while it runs) or the next
    // housekeeping timer; NO_HZ idle stops the tick (§6 "HZ / NO_HZ").
    const uint64_t now = mftb();
    uint64_t next = m_tick_running ? m_next_tick : ~0ull;
    if (!m_work) next = std::min(next, m_next_housekeeping);
    next = std::min(next, m_next_ipi);
    if (next == ~0ull) {
        // oneshot stopped: decrementer_max, next_tb = ~0
        m_next_tb = ~0ull;
        m_thread.write_dec(m_dec_max);
        return;
    }
    set_next_event(next > now ? next - now : m_params.clockevent_min_delta);
}

uint64_t l2_kernel::next_interval(double hz, std::mt19937_64& rng) {
    return next_event_interval(static_cast<double>(m_thread.tb_freq_hz()), hz, rng);
}

uint64_t l2_kernel::next_housekeeping_interval() {
    // Housekeeping timers (vmstat, RCU, writeback) at housekeeping_hz on an idle vCPU.
    return next_interval(m_params.housekeeping_hz, m_rng);
}

uint64_t l2_kernel::hcall_in_handler(uint64_t nr, uint64_t a4, uint64_t a5) {
    m_ctx.gpr[3] = nr, m_ctx.gpr[4] = a4, m_ctx.gpr[5] = a5;
    uint64_t r3 = 0;
    keeping_frame([&] { r3 = m_thread.guest_hcall(); });
    return r3;
}

void l2_kernel::xive_access(uint64_t ea, bool store, uint64_t value) {
    // An access to a XIVE page from kernel code inside the handler: an HDSI exit to the VMM
    // (no in-kernel XIVE for a nested L1, powerpc.c).
    if (store) m_ctx.gpr[power_insn::rs_field(power_insn::guest_mmio_store)] = value;
    keeping_frame([&] {
        if (store)
            m_thread.guest_mmio_store(ea);
        else
            m_thread.guest_mmio_load(ea);
    });
    m_probe.count(counter::l2_irqchip_accesses, m_id);
}

void l2_kernel::send_ipi() {
    // A timer callback wakes a task on another vCPU: try_to_wake_up -> ttwu_queue_wakelist /
    // resched_curr. A target polling in snooze (TIF_POLLING_NRFLAG) only gets need_resched
    // (set_nr_if_polling): no IPI. Otherwise smp_send_reschedule: H_IPI (XICS) or the
    // target's trigger store (XIVE).
    const unsigned others = m_params.vcpus - 1;
    const unsigned target = (m_params.vcpu + 1 + m_ipis_sent++ % others) % m_params.vcpus;
    if (m_sched.polling[target]) {
        m_sched.need_resched[target] = 1;
        m_probe.count(counter::l2_ipis_skipped_polling, m_id);
        return;
    }
    m_probe.count(counter::l2_ipis_sent, m_id);
    if (m_xive)
        // xive_cause_ipi: out_be64(trig_mmio, 0) on the target's IPI trigger page
        // (common.c:1069; QEMU's two-page ESB, spapr.c:435-440).
        xive_access(xive_page::esb_of(1 + target) + xive_page::esb_trigger, true, 0);
    else
        hcall_in_handler(papr::H_IPI, target, papr::IPI_PRIORITY);
}

void l2_kernel::ipi_action() {
    // smp_ipi_demux -> scheduler_ipi: need_resched ends a snooze; a cede has returned already.
    m_probe.count(counter::l2_ipis_received, m_id);
    exec(m_costs.ipi_handler.cycles);
    if (m_idle) m_need_resched = true;
}

void l2_kernel::device_action() {
    // The device's handler (vring_interrupt and the driver's completion); it may wake a task.
    m_probe.count(counter::l2_device_interrupts, m_id);
    exec(m_costs.device_event.cycles);
    if (m_idle) m_need_resched = true;
}

void l2_kernel::external_interrupt(const interrupt_record&) {
    if (m_xive) {
        // XIVE (sysdev/xive/common.c, spapr.c; 6.12 lines): xive_get_irq's ack, a 16-bit
        // TIMA load of TM_SPC_ACK_OS_REG (spapr.c:615), which lowers the line; the sources
        // come from the event queue in memory (xive_read_eq). Each source's EOI is an ESB
        // load of SET_PQ_00 (xive_do_source_eoi, common.c:429: QEMU offers no store EOI);
        // once the queue is empty xive_do_queue_eoi stores CPPR = 0xFF (common.c:207). A
        // second source in the queue is a replay, not a new ack.
        xive_access(xive_page::tima_os + xive_page::tm_spc_ack_os_reg, false);
        const guest_irq_queue q = m_irqs;
        m_irqs = guest_irq_queue{};
        if (q.ipi) {
            ipi_action();
            xive_access(xive_page::esb_of(1 + m_params.vcpu) + xive_page::esb_set_pq_00, false);
        }
        if (q.device) {
            device_action();
            xive_access(xive_page::esb_of(0) + xive_page::esb_set_pq_00, false);
        }
        xive_access(xive_page::tima_os + xive_page::tm_cppr, true, 0xFF);
    } else {
        // XICS (icp-hv): H_XIRR accepts the most favoured source; the IPI also clears its
        // MFRR (icp_hv_flush_ipi: H_IPI(self, 0xFF)); H_EOI ends it. Each hcall is an exit.
        hcall_in_handler(papr::H_XIRR);
        const uint64_t xirr = m_ctx.gpr[4];
        const uint64_t xisr = xirr & 0xFFFFFF;
        if (xisr == papr::XICS_IPI) {
            hcall_in_handler(papr::H_IPI, m_params.vcpu, 0xFF);
            ipi_action();
        } else if (xisr != 0) {
            device_action();
        }
        hcall_in_handler(papr::H_EOI, xirr);
    }
    m_thread.set_nia(m_thread.rfid());  // return to the interrupted code (§4.3)
}

void l2_kernel::run_expired_timers(uint64_t now) {
    if (m_tick_running && now >= m_next_tick) {
        m_probe.count(counter::l2_ticks, m_id);
        exec(m_costs.tick.cycles);
        while (m_next_tick <= now) m_next_tick += m_tick_period;
    }
    if (!m_work && now >= m_next_housekeeping) {
        m_probe.count(counter::l2_housekeeping, m_id);
        exec(m_costs.housekeeping.cycles);
        m_next_housekeeping = now + next_housekeeping_interval();
        if (m_idle) m_need_resched = true;  // the callback woke a kworker: leave the idle state
    }
    if (now >= m_next_ipi) {
        send_ipi();
        m_next_ipi = now + next_interval(m_params.ipi_hz(), m_ipi_rng);
    }
}

void l2_kernel::sample_timer_latency(uint64_t edge_tb, uint64_t handler_start) {
    // The edge in host ticks (L2 TB minus the offsets in force), then in time; the observer
    // classifies it by where the vCPU was then.
    const uint64_t edge = m_thread.time_of_host_ticks(edge_tb - m_ctx.tb_offset);
    m_probe.timer_interrupt(m_id, edge, handler_start);
}

void l2_kernel::interrupt_entry() {
    // The interrupt is taken (SRR0/1 set, the vector fetched), then the prolog saves the
    // registers into the frame before the handler's C code runs (exceptions-64s.S,
    // interrupt_64.S): a step of its own, before the handler starts.
    m_probe.step(m_id, path_step::l2_interrupt_entry, m_thread.step_time());
    exec(m_costs.interrupt_entry.cycles);
    m_thread.settle();  // retired at the rate it runs at, so the handler's start is exact
    m_probe.step(m_id, path_step::l2_running, m_thread.step_time());
}

void l2_kernel::timer_interrupt(const interrupt_record& rec) {
    // timer_interrupt (L-time, §6): write a positive DEC first (the exception is a level),
    // then run the clockevent handler if the event is due, else reprogram (early interrupt).
    const uint64_t handler_start = m_thread.step_time();
    const uint64_t edge_tb = m_next_tb;  // the 0 -> -1 transition set_next_event programmed
    m_thread.write_dec(m_dec_max);
    m_probe.count(counter::l2_timer_interrupts, m_id);
    exec(m_costs.timer_interrupt.cycles);
    const uint64_t now = mftb();
    if (now >= m_next_tb) {
        sample_timer_latency(edge_tb, handler_start);
        run_expired_timers(now);
    } else {
        m_probe.count(counter::l2_early_timer_interrupts, m_id);
    }
    program_next_event();
    (void)rec;
    m_thread.set_nia(m_thread.rfid());  // return to the interrupted code (§4.3)
}

l2_kernel::idle_state l2_kernel::select_idle_state(uint64_t now) const {
    if (!m_params.snooze) return idle_state::cede;
    // tick_nohz_get_sleep_length: the next timer event with the tick stopped.
    const double next_timer_us =
        m_work || m_next_housekeeping == ~0ull
            ? 1e300
            : static_cast<double>(m_next_housekeeping > now ? m_next_housekeeping - now : 0) /
                  m_tb_per_us;
    // menu_select: a timer due within Shared Cede's target residency -> state 0.
    if (next_timer_us < m_params.cede_target_residency_us) return idle_state::snooze;
    // The predicted idle length bounds the exit latency allowed (interactivity_req); below
    // Shared Cede's exit latency only the polling state qualifies. menu predicts from its last
    // eight intervals (get_typical_interval); this model from the last one.
    const double predicted_us = std::min(next_timer_us, m_last_idle_us);
    return predicted_us < m_params.cede_exit_latency_us ? idle_state::snooze : idle_state::cede;
}

void l2_kernel::snooze(uint64_t start) {
    // snooze_loop: interrupts on, HMT_low/HMT_very_low, spin until need_resched or until
    // snooze_timeout (the Shared Cede target residency) passes; no hcall, no exit.
    m_probe.count(counter::l2_snoozes, m_id);
    m_thread.set_nia(nia_snooze);
    m_thread.set_msr(m_thread.msr() | msr::ee);
    m_need_resched = false;
    // set_thread_flag(TIF_POLLING_NRFLAG) (cpuidle-pseries.c:42): a wake-up from another vCPU
    // then sets need_resched and sends no IPI (set_nr_if_polling, kernel/sched/core.c).
    uint8_t& polling = m_sched.polling[m_params.vcpu];
    uint8_t& woken = m_sched.need_resched[m_params.vcpu];
    polling = 1;
    m_thread.set_low_priority(true);
    const bool timed_out =
        m_thread.spin_for(m_params.cede_target_residency_us, cpu_if::time_unit::us,
                          [this, &woken] { return m_need_resched || woken; });
    m_thread.set_low_priority(false);
    polling = 0;
    woken = 0;
    if (timed_out) {
        // menu_update: a polling state left at its time limit counts as idle until the next
        // timer, so the next pick goes deeper.
        m_probe.count(counter::l2_snooze_timeouts, m_id);
        m_last_idle_us = 1e300;
    } else {
        m_last_idle_us = us_since(start);
    }
}

void l2_kernel::cede(uint64_t start, bool stop_tick) {
    // shared_cede_loop -> check_and_cede_processor: interrupts hard-disabled before H_CEDE
    // (prep_irq_for_idle); H_CEDE returns with MSR[EE]=1 (PAPR, kvmppc_cede).
    m_thread.set_msr(m_thread.msr() & ~msr::ee);
    if (m_params.nohz_idle && stop_tick) m_tick_running = false;  // NO_HZ idle stops the tick
    program_next_event();
    m_probe.count(counter::l2_cedes, m_id);
    m_thread.set_nia(nia_cede);
    m_ctx.gpr[3] = papr::H_CEDE;
    m_thread.guest_hcall();
    // menu_update: the residency less the exit latency (half of it if shorter than twice that).
    const double measured = us_since(start), lat = m_params.cede_exit_latency_us;
    m_last_idle_us = measured > 2 * lat ? measured - lat : measured / 2;
}

// The cpuidle state's residency, for a trace: power:cpu_idle's enter and exit in the L2 kernel.
void l2_kernel::trace_idle(tracepoint point, idle_state state) {
    if (!m_probe.tracing()) return;
    tracepoint_event e(point, m_id, m_thread.step_time());
    e.idle_state = state == idle_state::snooze ? 0 : 1;
    m_probe.tracepoint(e);
}

void l2_kernel::idle_loop() {
    m_idle = true;
    for (;;) {
        // do_idle -> cpuidle_idle_call: the governor picks a state, the driver enters it.
        m_thread.set_nia(nia_idle);
        exec(m_costs.idle_enter.cycles);
        const uint64_t start = mftb();
        const idle_state pick = select_idle_state(start);
        NESTVP_LOG(log::module::l2, log::level::debug,
                   "vcpu " << m_params.vcpu << ": idle, "
                           << (pick == idle_state::snooze ? "snooze" : "Shared Cede")
                           << ", last idle " << m_last_idle_us << " us");
        trace_idle(tracepoint::l2_idle_enter, pick);
        if (pick == idle_state::snooze)
            snooze(start);
        else
            cede(start);
        trace_idle(tracepoint::l2_idle_exit, pick);
        // An expired DEC is taken here once MSR[EE]=1 (timer_interrupt).
        exec(m_costs.idle_exit.cycles);
    }
}

void l2_kernel::main() {
    m_thread.await_entry(m_ctx);  // first entry by L0 (H_GUEST_RUN_VCPU / H_ENTER_NESTED)
    m_thread.set_handler(context_level::l2, [this](const interrupt_record& rec) {
        interrupt_entry();
        if (rec.vector == vector::external)
            external_interrupt(rec);
        else
            timer_interrupt(rec);
    });
    const uint64_t now = mftb();
    m_tick_running = m_work != nullptr || !m_params.nohz_idle;
    m_next_tick = (now / m_tick_period + 1) * m_tick_period;
    m_next_housekeeping = now + next_housekeeping_interval();
    if (m_params.ipi_hz() > 0 && m_params.vcpus > 1)
        m_next_ipi = now + next_interval(m_params.ipi_hz(), m_ipi_rng);
    program_next_event();
    if (m_work && m_params.booted_idle) {
        // l2.booted_idle: one pass of the idle path, Shared Cede until the next tick (work is
        // about to start, so the tick is not stopped), before the work starts.
        exec(m_costs.idle_enter.cycles);
        cede(mftb(), false);
        exec(m_costs.idle_exit.cycles);
    }
    if (m_work)
        m_work->run();
    else
        idle_loop();
}

}  // namespace nestvp
