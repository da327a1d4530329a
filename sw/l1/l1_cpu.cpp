#include "sw/l1/l1_cpu.h"

#include <algorithm>

#include "sw/papr/papr.h"

namespace nestvp {

namespace {
constexpr uint64_t nia_l1_idle = 0xc000000000030000ull;
}

l1_cpu::l1_cpu(cpu_if& thread, sw_context& ctx, const l1_config& cfg, bool large_dec,
               unsigned dec_bits, const l1_costs& costs, nested_probe& probe)
    : m_thread(thread), m_id(thread.id()), m_ctx(ctx), m_costs(costs), m_probe(probe) {
    m_tick_period = thread.tb_freq_hz() / std::max(1u, cfg.hz);
    m_dec_max = (1ull << ((large_dec ? dec_bits : 32) - 1)) - 1;
}

void l1_cpu::start() {
    m_thread.set_handler(context_level::l1, [this](const interrupt_record& rec) {
        if (rec.vector == vector::external)
            host_ipi(rec);
        else
            timer_interrupt(rec);
    });
    const uint64_t now = mftb();
    m_tick_running = true;
    m_next_tick = (now / m_tick_period + 1) * m_tick_period;
    program_dec();
}

uint64_t l1_cpu::next_timer_event() const {
    uint64_t next = m_tick_running ? m_next_tick : ~0ull;
    for (const hrtimer* t : m_hrtimers)
        if (t->armed) next = std::min(next, t->expiry);
    return next;
}

void l1_cpu::start_hrtimer(hrtimer& t, uint64_t expiry) {
    t.expiry = expiry;
    t.armed = true;
    if (std::find(m_hrtimers.begin(), m_hrtimers.end(), &t) == m_hrtimers.end())
        m_hrtimers.push_back(&t);
    program_dec();
}

void l1_cpu::cancel_hrtimer(hrtimer& t) {
    t.armed = false;
}

void l1_cpu::program_dec() {
    const uint64_t next = next_timer_event();
    if (next == ~0ull) {
        m_thread.write_dec(m_dec_max);
        return;
    }
    const uint64_t now = mftb();
    const uint64_t delta = next > now ? std::min(next - now, m_dec_max) : 1;
    m_thread.write_dec(delta - 1);  // set_dec(evt) writes evt - 1 (§6)
}

void l1_cpu::irq_enable() {
    m_thread.set_msr(m_thread.msr() | msr::ee);
    // Take what is deliverable now (a pending DEC: the timer interrupt).
    while (m_thread.pending_vector()) m_thread.execute(1);
}

void l1_cpu::irq_disable() {
    m_thread.set_msr(m_thread.msr() & ~msr::ee);
}

void l1_cpu::timer_interrupt(const interrupt_record&) {
    // timer_interrupt (§6): positive DEC first (level), then expired events, then reprogram.
    m_thread.write_dec(m_dec_max);
    m_probe.count(counter::l1_timer_interrupts, m_id);
    exec(m_costs.timer_interrupt.cycles);
    const uint64_t now = mftb();
    if (m_tick_running && now >= m_next_tick) {
        m_probe.count(counter::l1_ticks, m_id);
        exec(m_costs.tick.cycles);
        while (m_next_tick <= now) m_next_tick += m_tick_period;
    }
    for (hrtimer* t : m_hrtimers) {
        if (t->armed && now >= t->expiry) {
            t->armed = false;
            if (t->callback) t->callback();
        }
    }
    program_dec();
    m_thread.set_nia(m_thread.rfid());
}

void l1_cpu::host_ipi(const interrupt_record&) {
    // do_IRQ -> xive_get_irq (the ack) -> the IPI's action (smp_ipi_demux: a reschedule);
    // then rfid (timer-facilities.md §4.3).
    m_thread.ack_external();
    m_probe.count(counter::l1_host_ipis, m_id);
    exec(m_costs.host_ipi.cycles);
    m_thread.set_nia(m_thread.rfid());
}

bool l1_cpu::poll_until(const std::function<bool()>& woken, double window_ns) {
    m_probe.step(m_id, path_step::l1_halt_poll, m_thread.step_time());
    irq_enable();
    m_thread.spin_for(window_ns, cpu_if::time_unit::ns, woken);
    const bool ok = woken();
    m_probe.count(ok ? counter::l1_halt_poll_successes : counter::l1_halt_poll_misses, m_id);
    return ok;
}

void l1_cpu::block_until(const std::function<bool()>& woken) {
    // schedule() away from the vCPU task; the CPU goes idle with the tick stopped (NO_HZ).
    m_probe.step(m_id, path_step::l1_blocked, m_thread.step_time());
    exec(m_costs.block.cycles);
    m_probe.count(counter::l1_blocks, m_id);
    m_tick_running = false;
    const uint64_t saved_nia = m_ctx.nia;
    while (!woken()) {
        irq_disable();
        program_dec();
        m_ctx.nia = nia_l1_idle;
        if (!m_thread.pending_vector() && !m_thread.dec_pending()) {
            hcall_frame f;
            f.r[3] = papr::H_CEDE;
            m_thread.hcall(f);  // the thread is inactive until L1's DEC fires
            // Back from L0's dispatch: the idle CPU takes its interrupt (still blocked).
            m_probe.step(m_id, path_step::l1_blocked, m_thread.step_time());
        }
        irq_enable();  // the timer interrupt runs expired hrtimers (which may wake the task)
    }
    m_ctx.nia = saved_nia;
    // Back from idle: restart the tick on the next jiffy and switch to the vCPU task.
    m_probe.step(m_id, path_step::l1_wake, m_thread.step_time());
    const uint64_t now = mftb();
    m_tick_running = true;
    m_next_tick = (now / m_tick_period + 1) * m_tick_period;
    program_dec();
    exec(m_costs.wake.cycles);
}

}  // namespace nestvp
