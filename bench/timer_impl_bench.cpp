// timer_impl_bench: wall time of the three timer-unit implementations (tlm, rtl, lockstep) on
// the same 10 s simulated stimulus, in one run (bench/README.md, "RTL co-simulation").
//
// The stimulus has the DEC write rate of the reference platform's hardware threads (assumed:
// ~15,000 DEC writes/s per thread; see the README) plus a DEC read before every write, an
// HDEC write (0.1..2 ms) and LPCR load on every 8th write (a guest entry), and a handler that
// queries both lines on every pending change, re-arms a DEC that fired and acknowledges HDEC.
//
// Then the same comparison on a whole platform run (default platforms/reference.yaml, 10 s):
// `nestvp run` with machine.timer.impl set to each implementation.
//
// Parent mode (no --impl): runs itself once per implementation and repetition (SystemC
// elaborates once per process) and prints medians and ratios. Child mode (--impl X): one run,
// one "RESULT" line.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include <systemc>

#include "models/lockstep_timer_unit.h"
#include "models/rtl_timer_unit.h"
#include "models/time_base.h"
#include "models/timer_unit_factory.h"
#include "platforms/config/platform_loader.h"
#include "platforms/runner/run_platform.h"

namespace {

using namespace nestvp;

#ifndef NESTVP_SOURCE_DIR
#define NESTVP_SOURCE_DIR "."
#endif
const char* const default_platform = NESTVP_SOURCE_DIR "/platforms/reference.yaml";

struct options {
    std::string impl;       // empty: parent mode
    std::string platform;   // child mode: run this platform file instead of the stimulus
    std::string trace_dir;  // child mode, stimulus: one VCD per unit in this folder
    double duration_s = 10.0;
    unsigned threads = 4;
    double write_rate = 15000.0;  // DEC writes per second per hardware thread
    unsigned reps = 5;
    uint64_t seed = 1;
};

// One hardware thread's software: a timer-programming loop plus the interrupt handler.
class thread_stimulus : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(thread_stimulus);
    thread_stimulus(const sc_core::sc_module_name& n, time_base& tb, timer_unit_if& u,
                    double write_rate, uint64_t seed)
        : sc_core::sc_module(n),
          m_tb(tb),
          m_unit(u),
          m_rng(seed),
          m_mean_gap_ticks(static_cast<double>(tb.freq_hz()) / write_rate) {
        SC_METHOD(program);
        SC_METHOD(handle);
        sensitive << u.pending_changed_event();
        dont_initialize();
    }
    uint64_t writes = 0, reads = 0, dec_irqs = 0, hdec_irqs = 0;

private:
    // Linux/KVM: read the DEC (how much is left), program the next event (set_dec writes
    // ticks-1, §8 vector 7); every 8th time also a guest entry: LPCR with LD and HDICE, HDEC =
    // time slice (§3 "use for time slicing"), short enough that some slices expire.
    void program() {
        m_unit.read_dec();
        ++reads;
        const unsigned kind = m_rng() % 10;
        uint64_t ticks;
        if (kind < 7)
            ticks = 512000 + m_rng() % 4608000;  // 1..10 ms: usually rewritten before it fires
        else if (kind < 9)
            ticks = 2560 + m_rng() % 28160;  // 5..60 us: fires
        else
            ticks = 1;  // irq_work: set_dec(1) writes 0, fires one tick later
        m_unit.write_dec(ticks - 1);
        ++writes;
        if (writes % 8 == 0) {
            m_unit.set_lpcr(true, true);
            m_unit.write_hdec(51200 + m_rng() % 972800);  // 0.1..2 ms slice: some expire
        }
        // Exponentially distributed gaps with the configured mean rate.
        std::exponential_distribution<double> gap(1.0 / m_mean_gap_ticks);
        const uint64_t g = 1 + static_cast<uint64_t>(gap(m_rng));
        next_trigger(m_tb.duration_of(g));
    }
    // The interrupt handler: DEC is a level (§2.2), cleared by writing a positive value;
    // HDEC is acknowledged by taking it (§3).
    void handle() {
        if (m_unit.dec_pending()) {
            ++dec_irqs;
            m_unit.write_dec(512000 + m_rng() % 4608000);
            ++writes;
        }
        if (m_unit.hdec_pending()) {
            ++hdec_irqs;
            m_unit.ack_hdec();
        }
    }

    time_base& m_tb;
    timer_unit_if& m_unit;
    std::mt19937_64 m_rng;
    double m_mean_gap_ticks;
};

rtl_timer_unit* rtl_of(timer_unit_if* u) {
    if (auto* r = dynamic_cast<rtl_timer_unit*>(u)) return r;
    if (auto* l = dynamic_cast<lockstep_timer_unit*>(u))
        return dynamic_cast<rtl_timer_unit*>(&l->dut());
    return nullptr;
}

// User + system CPU time of this process: steadier than wall time on a shared machine.
double cpu_seconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

// The whole platform (e.g. platforms/reference.yaml) with machine.timer.impl set; its own
// duration (10 s for the reference). DEC writes: the L2 kernel's set_dec plus L1's set_timer.
int run_platform_child(const options& o) {
    platform_config cfg = load_platform(o.platform, {"machine.timer.impl=" + o.impl});
    const double c0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    const run_result r = run_platform(cfg);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = cpu_seconds() - c0;
    auto count = [&](const char* k) {
        const auto it = r.metrics.counters.find(k);
        return it == r.metrics.counters.end() ? 0ull : static_cast<unsigned long long>(it->second);
    };
    std::printf(
        "RESULT impl=%s wall_s=%.6f cpu_s=%.6f sim_s=%.6f writes=%llu reads=0 dec_irqs=%llu "
        "hdec_irqs=%llu evals=%llu skipped=%llu\n",
        o.impl.c_str(), wall, cpu, r.sim_seconds, count("l2.set_dec") + count("l1.set_timer"),
        count("l2.timer_interrupts") + count("l1.timer_interrupts"),
        static_cast<unsigned long long>(r.metrics.exits_by_reason.count("0x980 HDEC")
                                            ? r.metrics.exits_by_reason.at("0x980 HDEC")
                                            : 0),
        static_cast<unsigned long long>(rtl_timer_unit::total_evaluations()),
        static_cast<unsigned long long>(rtl_timer_unit::total_ticks_skipped()));
    return 0;
}

int run_child(const options& o) {
    if (!o.platform.empty()) return run_platform_child(o);
    time_base tb("tb");
    std::vector<std::unique_ptr<timer_unit_if>> units;
    std::vector<std::unique_ptr<thread_stimulus>> stim;
    timer_unit_options to;
    to.impl = o.impl;
    for (unsigned i = 0; i < o.threads; ++i) {
        const std::string n = "t" + std::to_string(i);
        if (!o.trace_dir.empty()) to.trace_path = o.trace_dir + "/" + n + ".vcd";
        units.push_back(make_timer_unit((n + "_timers").c_str(), tb, to));
        stim.push_back(std::make_unique<thread_stimulus>((n + "_sw").c_str(), tb, *units.back(),
                                                         o.write_rate, o.seed * 1000 + i));
    }
    const double c0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start(sc_core::sc_time(o.duration_s, sc_core::SC_SEC));
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = cpu_seconds() - c0;
    uint64_t writes = 0, reads = 0, dirq = 0, hirq = 0, evals = 0, skipped = 0;
    for (auto& s : stim) {
        writes += s->writes;
        reads += s->reads;
        dirq += s->dec_irqs;
        hirq += s->hdec_irqs;
    }
    for (auto& u : units)
        if (rtl_timer_unit* r = rtl_of(u.get())) {
            evals += r->evaluations();
            skipped += r->ticks_skipped();
        }
    std::printf(
        "RESULT impl=%s wall_s=%.6f cpu_s=%.6f writes=%llu reads=%llu dec_irqs=%llu "
        "hdec_irqs=%llu evals=%llu skipped=%llu\n",
        o.impl.c_str(), wall, cpu, static_cast<unsigned long long>(writes),
        static_cast<unsigned long long>(reads), static_cast<unsigned long long>(dirq),
        static_cast<unsigned long long>(hirq), static_cast<unsigned long long>(evals),
        static_cast<unsigned long long>(skipped));
    return 0;
}

using result = std::map<std::string, double>;

// Runs one child; `workload` is the argument list after --impl.
bool run_one(const std::string& self, const std::string& impl, const std::string& workload,
             result& r) {
    const std::string cmd = "'" + self + "' --impl " + impl + " " + workload;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return false;
    char line[1024];
    bool ok = false;
    while (std::fgets(line, sizeof line, p)) {
        if (std::strncmp(line, "RESULT ", 7) != 0) continue;
        char* save = nullptr;
        for (char* tok = strtok_r(line + 7, " \n", &save); tok;
             tok = strtok_r(nullptr, " \n", &save)) {
            char* eq = std::strchr(tok, '=');
            if (!eq) continue;
            *eq = '\0';
            if (std::strcmp(tok, "impl") != 0) r[tok] = std::atof(eq + 1);
        }
        ok = true;
    }
    return pclose(p) == 0 && ok;
}

// Median of one field over the repetitions.
double median(const std::vector<result>& runs, const char* field) {
    std::vector<double> v;
    for (const auto& r : runs) v.push_back(r.count(field) ? r.at(field) : 0.0);
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Runs tlm, rtl and lockstep `reps` times each on one workload, interleaved so that machine
// noise hits all of them alike, and prints medians and ratios.
bool compare(const std::string& self, const std::string& workload, unsigned reps, double sim_s) {
    const std::vector<std::string> impls = {"tlm", "rtl", "lockstep"};
    std::map<std::string, std::vector<result>> runs;
    for (unsigned rep = 0; rep < reps; ++rep)
        for (const auto& i : impls) {
            result r;
            if (!run_one(self, i, workload, r)) {
                std::fprintf(stderr, "timer_impl_bench: the %s run failed (%s)\n", i.c_str(),
                             workload.c_str());
                return false;
            }
            runs[i].push_back(r);
        }
    const double tlm_wall = median(runs["tlm"], "wall_s");
    const double tlm_cpu = median(runs["tlm"], "cpu_s");
    std::printf("%-9s %9s %9s %8s %8s %10s %9s %9s %14s %14s\n", "impl", "wall [s]", "cpu [s]",
                "wall/tlm", "cpu/tlm", "DEC writes", "DEC irqs", "HDEC irqs", "RTL evals/s",
                "ticks/eval");
    for (const auto& i : impls) {
        const auto& r = runs[i];
        const double evals = median(r, "evals");
        std::printf("%-9s %9.3f %9.3f %7.2fx %7.2fx %10.0f %9.0f %9.0f %14.0f %14.0f\n", i.c_str(),
                    median(r, "wall_s"), median(r, "cpu_s"), median(r, "wall_s") / tlm_wall,
                    median(r, "cpu_s") / tlm_cpu, median(r, "writes"), median(r, "dec_irqs"),
                    median(r, "hdec_irqs"), evals / sim_s,
                    evals > 0 ? median(r, "skipped") / evals : 0.0);
    }
    const double rtl = median(runs["rtl"], "wall_s") / tlm_wall;
    const double ls = median(runs["lockstep"], "wall_s") / tlm_wall;
    std::printf(
        "rtl/tlm = %.2fx wall (target <= 1.5x: %s), lockstep/tlm = %.2fx wall "
        "(target <= 2x: %s)\n\n",
        rtl, rtl <= 1.5 ? "met" : "NOT met", ls, ls <= 2.0 ? "met" : "NOT met");
    return true;
}

int run_parent(const options& o) {
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) {
        std::fprintf(stderr, "timer_impl_bench: cannot find its own executable\n");
        return 2;
    }
    const std::string self(buf, static_cast<size_t>(n));
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);

    std::printf(
        "[stimulus] %g s simulated, %u hardware threads, %g DEC writes/s per thread (+1 DEC "
        "read per write, HDEC+LPCR every 8th write), median of %u runs per impl\n",
        o.duration_s, o.threads, o.write_rate, o.reps);
    char w[512];
    std::snprintf(w, sizeof w, "--duration %g --threads %u --rate %g --seed %llu", o.duration_s,
                  o.threads, o.write_rate, static_cast<unsigned long long>(o.seed));
    if (!compare(self, w, o.reps, o.duration_s)) return 1;

    if (o.platform == "none") return 0;
    const std::string file = o.platform.empty() ? default_platform : o.platform;
    if (access(file.c_str(), R_OK) != 0) {
        std::printf("[platform] %s not readable: skipped\n", file.c_str());
        return 0;
    }
    const platform_config cfg = load_platform(file);
    const unsigned reps = std::max(1u, o.reps / 2 + 1);
    std::printf(
        "[platform] %s: %g s simulated (nestvp run, machine.timer.impl=...), median "
        "of %u runs per impl\n",
        file.c_str(), cfg.run.duration_s, reps);
    if (!compare(self, "--platform '" + file + "'", reps, cfg.run.duration_s)) return 1;
    return 0;
}

bool parse(int argc, char** argv, options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto val = [&](const char* what) -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "timer_impl_bench: %s needs a value\n", what);
                return nullptr;
            }
            return argv[++i];
        };
        const char* v = nullptr;
        if (a == "--impl" && (v = val("--impl")))
            o.impl = v;
        else if (a == "--duration" && (v = val("--duration")))
            o.duration_s = std::atof(v);
        else if (a == "--threads" && (v = val("--threads")))
            o.threads = static_cast<unsigned>(std::atoi(v));
        else if (a == "--rate" && (v = val("--rate")))
            o.write_rate = std::atof(v);
        else if (a == "--reps" && (v = val("--reps")))
            o.reps = static_cast<unsigned>(std::atoi(v));
        else if (a == "--trace-dir" && (v = val("--trace-dir")))
            o.trace_dir = v;
        else if (a == "--platform" && (v = val("--platform")))
            o.platform = v;
        else if (a == "--seed" && (v = val("--seed")))
            o.seed = std::strtoull(v, nullptr, 0);
        else {
            std::fprintf(stderr,
                         "usage: timer_impl_bench [--impl tlm|rtl|lockstep] [--duration S] "
                         "[--threads N] [--rate WRITES_PER_S] [--reps N] [--seed N]\n"
                         "                        [--platform FILE|none] [--trace-dir DIR]\n");
            return false;
        }
    }
    if (o.duration_s <= 0 || o.threads == 0 || o.write_rate <= 0 || o.reps == 0) {
        std::fprintf(stderr, "timer_impl_bench: duration, threads, rate and reps must be > 0\n");
        return false;
    }
    return true;
}

}  // namespace

int sc_main(int argc, char** argv) {
    options o;
    if (!parse(argc, argv, o)) return 2;
    try {
        return o.impl.empty() ? run_parent(o) : run_child(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "timer_impl_bench: %s\n", e.what());
        return 1;
    }
}
