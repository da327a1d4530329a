// trace-stats (platforms/traces/trace_stats.h) on small traces written here: both text
// formats, malformed and skipped lines, unknown events, intervals and exit rates, the counts
// JSON, and its own JSON read back.
#include "platforms/traces/trace_stats.h"

#include <gtest/gtest.h>

#include "platforms/traces/kvm_exit_symbols.h"
#include "platforms/traces/trace_line.h"

namespace {

using namespace nestvp;

const char* const k_perf =
    "# ========\n"
    "# captured on    : Mon Dec  7 10:00:00 2026\n"
    "       CPU 0/KVM  1001 [000]   100.000001000: kvm_hv:kvm_guest_enter: VCPU 0: "
    "pc=0xc000000000010000 pexcp=0x0 ceded=0\n"
    "       CPU 0/KVM  1001 [000]   100.000001500: powerpc:hcall_entry: opcode=1152\n"
    "       CPU 0/KVM  1001 [000]   100.000011500: powerpc:hcall_exit: opcode=1152 retval=0\n"
    "       CPU 0/KVM  1001 [000]   100.000012000: kvm_hv:kvm_guest_exit: VCPU 0: "
    "trap=HV_DECREMENTER pc=0xc000000000010000 msr=0x8000000000001033, ceded=0\n"
    "\t    c0080000012345a0 kvmhv_run_single_vcpu+0x5a0 ([kvm_hv])\n"
    "       CPU 0/KVM  1001 [000]   100.000013000: probe:kvmppc_gsb_recv: (c008000008a1c0f0)\n"
    "       CPU 0/KVM  1001 [000]   100.000014000: kvm_hv:kvm_guest_enter: VCPU 0: "
    "pc=0xc000000000010000 pexcp=0x0 ceded=0\n"
    "       CPU 1/KVM  1002 [001]   100.000020000: sched:sched_switch: prev_comm=x\n"
    "       CPU 0/KVM  1001 [000]   100.000034000: kvm_hv:kvm_guest_exit: VCPU 0: trap=0x0 "
    "pc=0xc000000000010000 msr=0x8000000000001033, ceded=1\n";

TEST(trace_stats, perf_script_counts_traps_intervals_and_unknown_events) {
    const trace_stats s = trace_stats_of_text(k_perf, "t.txt", {});
    EXPECT_EQ(s.format, "perf-script");
    EXPECT_EQ(s.parsed, 8u);
    EXPECT_EQ(s.skipped, 3u);  // two headers and the call-chain line
    EXPECT_EQ(s.malformed, 0u);
    EXPECT_EQ(s.events.at("kvm_hv:kvm_guest_exit"), 2u);
    EXPECT_EQ(s.events.at("probe:kvmppc_gsb_recv"), 1u);
    EXPECT_EQ(s.unknown_events.at("sched:sched_switch"), 1u);
    EXPECT_EQ(s.exits_by_trap.at("HV_DECREMENTER"), 1u);
    EXPECT_EQ(s.exits_by_trap.at("0x0"), 1u);
    EXPECT_EQ(s.exits_by_vcpu.at(0), 2u);
    EXPECT_EQ(s.hcalls_by_opcode.at(1152), 1u);
    // enter at 1.0 us, exit at 12.0 us; enter at 14.0, exit at 34.0; exit 12.0 -> enter 14.0
    const interval_summary& in = s.enter_to_exit.at(0);
    EXPECT_EQ(in.count, 2u);
    EXPECT_DOUBLE_EQ(in.min, 11000);
    EXPECT_DOUBLE_EQ(in.max, 20000);
    EXPECT_DOUBLE_EQ(s.exit_to_enter.at(0).mean, 2000);
    EXPECT_NEAR(s.span_s, 33e-6, 1e-12);
    ASSERT_EQ(s.exit_rate.size(), 1u);
    EXPECT_DOUBLE_EQ(s.exit_rate[0], 2 / 0.1);
}

TEST(trace_stats, tracefs_lines_take_perf_names) {
    const std::string text =
        "# tracer: nop\n"
        "#\n"
        "# entries-in-buffer/entries-written: 3/3   #P:2\n"
        "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
        "       CPU 0/KVM-175     [001] d..1.   130.120000: kvm_guest_exit: VCPU 0: "
        "trap=H_DATA_STORAGE pc=0xc000000000001000 msr=0x8000000000001033, ceded=0\n"
        "       CPU 0/KVM-175     [001] .....   130.120010: gsb_recv: (kvmppc_gsb_recv+0x0/0x1b0)\n"
        "       CPU 0/KVM-175     [001] d..1.   130.120020: hcall_entry: opcode=1144\n";
    const trace_stats s = trace_stats_of_text(text, "trace", {});
    EXPECT_EQ(s.format, "tracefs");
    EXPECT_EQ(s.parsed, 3u);
    EXPECT_EQ(s.events.at("kvm_hv:kvm_guest_exit"), 1u);
    EXPECT_EQ(s.events.at("probe:kvmppc_gsb_recv"), 1u);
    EXPECT_EQ(s.events.at("powerpc:hcall_entry"), 1u);
    EXPECT_EQ(s.exits_by_trap.at("H_DATA_STORAGE"), 1u);
}

TEST(trace_stats, malformed_lines_are_named_skipped_and_fatal_under_strict) {
    std::string text = k_perf;
    text += "this is not a trace line\n";
    text += "       CPU 0/KVM  1001 [000]   100.000040000: kvm_hv:kvm_guest_exit: VCPU zero\n";
    const trace_stats s = trace_stats_of_text(text, "t.txt", {});
    EXPECT_EQ(s.malformed, 2u);
    ASSERT_EQ(s.malformed_lines.size(), 2u);
    EXPECT_EQ(s.malformed_lines[0].line, 12u);
    EXPECT_EQ(s.malformed_lines[1].line, 13u);
    EXPECT_NE(s.malformed_lines[1].why.find("kvm_guest_exit"), std::string::npos);
    EXPECT_EQ(s.events.at("kvm_hv:kvm_guest_exit"), 2u);  // the bad one is not counted
    trace_stats_options strict;
    strict.strict = true;
    try {
        trace_stats_of_text(text, "t.txt", strict);
        FAIL() << "strict accepted a malformed line";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("t.txt:12:"), std::string::npos) << e.what();
    }
}

TEST(trace_stats, a_file_without_an_event_line_is_an_error) {
    EXPECT_THROW(trace_stats_of_text("# only a header\n\nnonsense\n", "x", {}), std::runtime_error);
    EXPECT_THROW(trace_stats_of_text("", "x", {}), std::runtime_error);
}

TEST(trace_stats, its_json_reads_back) {
    const trace_stats s = trace_stats_of_text(k_perf, "t.txt", {});
    const trace_stats b = trace_stats_from_json(trace_stats_json(s), "j");
    EXPECT_EQ(b.events, s.events);
    EXPECT_EQ(b.exits_by_trap, s.exits_by_trap);
    EXPECT_EQ(b.exits_by_vcpu, s.exits_by_vcpu);
    EXPECT_EQ(b.hcalls_by_opcode, s.hcalls_by_opcode);
    EXPECT_EQ(b.enter_to_exit.at(0).count, 2u);
    EXPECT_DOUBLE_EQ(b.enter_to_exit.at(0).p99, s.enter_to_exit.at(0).p99);
    EXPECT_THROW(trace_stats_from_json(json::object(), "j"), std::runtime_error);
}

TEST(trace_stats, reads_the_real_stack_counts_json) {
    const std::string path =
        std::string(NESTVP_SOURCE_DIR) + "/bench/realstack/results/2vcpu-idle-cancel-2.json";
    const trace_stats s = read_trace_stats(path, {});
    EXPECT_EQ(s.format, "counts-json");
    EXPECT_EQ(s.events.at("kvm_hv:kvm_guest_exit"), 428012u);
    EXPECT_EQ(s.events.at("probe:kvmppc_gsb_recv"), 142183u);
    EXPECT_EQ(s.exits_by_trap.at("HV_DECREMENTER"), 332349u);
    EXPECT_EQ(s.hcalls_by_opcode.at(0x478), 237870u);
    EXPECT_EQ(s.exits_by_vcpu.at(0), 197264u);
    EXPECT_DOUBLE_EQ(s.span_s, 10.0);
}

// The real L1 kernel's trace file (bench/realstack/README.md, "Raw trace burst"): read as
// tracefs text, its counts are those of the hist triggers that ran over the same window.
TEST(trace_stats, reads_the_real_stacks_tracefs_sample_with_its_hist_counts) {
    const std::string dir = std::string(NESTVP_SOURCE_DIR) + "/bench/realstack/samples/";
    trace_stats_options strict;
    strict.strict = true;  // every line of the real file is read
    const trace_stats t = read_trace_stats(dir + "trace-2vcpu-arith1-no-cancel.txt", strict);
    const trace_stats h = read_trace_stats(dir + "trace-2vcpu-arith1-no-cancel.counts.json", {});
    EXPECT_EQ(t.format, "tracefs");
    EXPECT_EQ(h.format, "counts-json");
    EXPECT_EQ(t.malformed, 0u);
    EXPECT_TRUE(t.unknown_events.empty());
    ASSERT_EQ(t.events.size(), 5u);
    EXPECT_EQ(t.events, h.events);
    EXPECT_EQ(t.exits_by_trap, h.exits_by_trap);
    EXPECT_EQ(t.exits_by_vcpu, h.exits_by_vcpu);
    EXPECT_EQ(t.hcalls_by_opcode, h.hcalls_by_opcode);
    EXPECT_EQ(t.events.at("kvm_hv:kvm_guest_exit"), 211u);
    // ppc-tb ticks at 512 MHz: the burst lasted about raw_trace_s of L1 time.
    EXPECT_GT(t.span_s, 0.3);
    EXPECT_LT(t.span_s, 0.7);
    EXPECT_EQ(t.enter_to_exit.at(0).count + t.enter_to_exit.at(1).count, 211u);
}

TEST(kvm_exit_symbols, names_and_their_reverse) {
    EXPECT_EQ(kvm_exit_symbol(0x980), "HV_DECREMENTER");
    EXPECT_EQ(kvm_exit_symbol(0xe00), "H_DATA_STORAGE");
    EXPECT_EQ(kvm_exit_symbol(0), "0x0");
    EXPECT_EQ(kvm_exit_symbol(0xea0), "0xea0");
    uint32_t t = 1;
    EXPECT_TRUE(kvm_exit_trap("SYSCALL", t));
    EXPECT_EQ(t, 0xc00u);
    EXPECT_TRUE(kvm_exit_trap("0xea0", t));
    EXPECT_EQ(t, 0xea0u);
    EXPECT_FALSE(kvm_exit_trap("HDEC", t));
    EXPECT_FALSE(kvm_exit_trap("0xzz", t));
}

TEST(trace_line, canonical_names) {
    EXPECT_EQ(canonical_event("kvm_guest_exit"), "kvm_hv:kvm_guest_exit");
    EXPECT_EQ(canonical_event("gsb_recv"), "probe:kvmppc_gsb_recv");
    EXPECT_EQ(canonical_event("kprobes:gsb_recv"), "probe:kvmppc_gsb_recv");
    EXPECT_EQ(canonical_event("hcall_exit"), "powerpc:hcall_exit");
    EXPECT_EQ(canonical_event("sched:sched_switch"), "sched:sched_switch");
}

}  // namespace
