#include "platforms/runner/stim_runner.h"

#include <cinttypes>
#include <cstdio>
#include <exception>
#include <memory>

#include <systemc>

#include "models/exception_logic.h"
#include "models/spr_access.h"
#include "models/tb_register.h"
#include "models/time_base.h"
#include "models/timer_unit_factory.h"

namespace nestvp {

namespace {

std::string hex16(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "\"0x%016" PRIx64 "\"", v);
    return b;
}

// The thread that executes the steps and takes interrupts between them.
class stim_driver : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(stim_driver);
    stim_driver(const sc_core::sc_module_name& name, const stim_file& f, time_base& tb,
                exception_logic& ic, spr_access& sa)
        : sc_core::sc_module(name), m_file(f), m_tb(tb), m_ic(ic), m_sa(sa) {
        SC_THREAD(run);
    }

    std::vector<std::string> lines;
    std::exception_ptr error;

private:
    void run() {
        try {
            execute();
        } catch (...) {
            error = std::current_exception();
        }
        sc_core::sc_stop();
    }

    void execute() {
        size_t i = 0;
        for (;;) {
            take_interrupts(stim_nia(i));
            if (i == m_file.steps.size()) return;
            const stim_step& s = m_file.steps[i];
            const uint64_t now = m_tb.ticks();
            if (now < s.at) {
                const sc_core::sc_time at = m_tb.time_of(s.at);
                if (at == sc_core::sc_max_time())
                    throw stim_error(s.where + ": 'at' = " + std::to_string(s.at) +
                                     " is beyond the simulated time range at tb_hz = " +
                                     std::to_string(m_tb.freq_hz()));
                // Sleep until the step or until something may have become deliverable.
                wait(at - sc_core::sc_time_stamp(), m_ic.deliverable_event());
                continue;
            }
            if (step(s, i)) return;
            ++i;
        }
    }

    void take_interrupts(uint64_t nia) {
        for (int n = 0; auto v = m_ic.pending_vector(); ++n) {
            (void)v;
            if (n == 64)
                throw stim_error(m_file.path + ":1:1: interrupt storm at tick " +
                                 std::to_string(m_tb.ticks()));
            emit(m_ic.take(nia));
        }
    }

    // Executes one step; returns true on `end`.
    bool step(const stim_step& s, size_t i) {
        const uint64_t cia = stim_nia(i);
        switch (s.op) {
            case stim_op::end:
                return true;
            case stim_op::msr: {
                // Testbench control of MSR fields (not mtmsrd: may set HV and PR freely).
                uint64_t m = m_ic.msr();
                if (s.ee) m = *s.ee ? m | msr::ee : m & ~msr::ee;
                if (s.hv) m = *s.hv ? m | msr::hv : m & ~msr::hv;
                if (s.pr) m = *s.pr ? m | msr::pr : m & ~msr::pr;
                m_ic.set_msr(m);
                return false;
            }
            case stim_op::mtspr:
                fault_or(m_sa.mtspr(s.spr, s.value), cia);
                return false;
            case stim_op::mfspr: {
                const spr_result r = m_sa.mfspr(s.spr);
                if (fault_or(r, cia)) return false;
                lines.push_back("{\"tb\":" + std::to_string(m_tb.ticks()) +
                                ",\"op\":\"mfspr\",\"spr\":\"" + s.spr_name +
                                "\",\"value\":" + hex16(r.value) + "}");
                return false;
            }
            case stim_op::rfid:
                fault_or(m_sa.rfid(), cia);
                return false;
            case stim_op::hrfid:
                fault_or(m_sa.hrfid(), cia);
                return false;
        }
        return false;
    }

    // A refused access raises its exception (SRR0/HSRR0 = the faulting step); returns true then.
    bool fault_or(const spr_result& r, uint64_t cia) {
        if (r.ok()) return false;
        emit(m_sa.raise(r, cia));
        return true;
    }

    void emit(const interrupt_record& rec) {
        char vec[16];
        std::snprintf(vec, sizeof vec, "0x%x", rec.vector);
        const char* s0 = rec.hypervisor ? "hsrr0" : "srr0";
        const char* s1 = rec.hypervisor ? "hsrr1" : "srr1";
        lines.push_back("{\"tb\":" + std::to_string(m_tb.ticks()) +
                        ",\"event\":\"interrupt\",\"vector\":\"" + vec + "\",\"" + s0 +
                        "\":" + hex16(rec.save0) + ",\"" + s1 + "\":" + hex16(rec.save1) +
                        ",\"msr\":" + hex16(rec.new_msr) +
                        ",\"ee\":" + std::to_string((rec.new_msr & msr::ee) ? 1 : 0) +
                        ",\"hv\":" + std::to_string((rec.new_msr & msr::hv) ? 1 : 0) +
                        ",\"pr\":" + std::to_string((rec.new_msr & msr::pr) ? 1 : 0) + "}");
    }

    const stim_file& m_file;
    time_base& m_tb;
    exception_logic& m_ic;
    spr_access& m_sa;
};

}  // namespace

std::vector<std::string> run_stim(const stim_file& f, const stim_options& opts) {
    // sc_stop's "Simulation stopped by user" info must not reach stdout.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    const stim_thread& t = f.thread;
    time_base tb("tb", t.tb_hz);
    timer_unit_options o;
    o.impl = opts.impl;
    o.dec_bits = t.dec_bits;
    o.trace_path = opts.trace_path;
    std::unique_ptr<timer_unit_if> unit = make_timer_unit("timers", tb, o);
    uint64_t m = msr::sf | msr::me;
    if (t.ee) m |= msr::ee;
    if (t.hv) m |= msr::hv;
    if (t.pr) m |= msr::pr;
    const uint64_t l = (t.ld ? lpcr::ld : 0) | (t.hdice ? lpcr::hdice : 0);
    exception_logic ic("ic", m, l);
    ic.timer_lines.bind(*unit);
    tb_register tbr(tb);
    spr_access sa(ic, *unit, tbr);
    stim_driver drv("thread", f, tb, ic, sa);
    sc_core::sc_start();
    if (drv.error) std::rethrow_exception(drv.error);
    return drv.lines;
}

}  // namespace nestvp
