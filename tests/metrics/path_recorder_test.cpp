// path_recorder: marks per vCPU, latencies split over the steps they cross
// (sw/metrics/path_recorder.h, docs/nested-entry-exit.md). One time unit is one ns here.
#include "sw/metrics/path_recorder.h"

#include <gtest/gtest.h>

#include <numeric>

namespace {

using nestvp::latency_kind;
using nestvp::path_recorder;
using nestvp::path_step;

double step_mean(const path_recorder& p, latency_kind k, path_step s) {
    return p.breakdown(k)[static_cast<unsigned>(s)];
}

double breakdown_sum(const path_recorder& p, latency_kind k) {
    const auto b = p.breakdown(k);
    return std::accumulate(b.begin(), b.end(), 0.0);
}

}  // namespace

TEST(path_recorder, a_sample_splits_over_the_steps_it_crosses) {
    path_recorder p(1, 1.0);
    p.mark(0, path_step::l0_hcall_entry, 0);
    p.mark(0, path_step::l0_read_input, 10);
    p.mark(0, path_step::l2_running, 30);
    p.mark(0, path_step::l0_exit_interrupt, 100);
    EXPECT_DOUBLE_EQ(p.sample(latency_kind::nested_entry, 0, 0x980, 5, 30), 25.0);
    EXPECT_DOUBLE_EQ(step_mean(p, latency_kind::nested_entry, path_step::l0_hcall_entry), 5.0);
    EXPECT_DOUBLE_EQ(step_mean(p, latency_kind::nested_entry, path_step::l0_read_input), 20.0);
    EXPECT_DOUBLE_EQ(step_mean(p, latency_kind::nested_entry, path_step::l2_running), 0.0);
    // A second sample ending inside the last step; the breakdown is the mean per sample.
    EXPECT_DOUBLE_EQ(p.sample(latency_kind::nested_entry, 0, 0x980, 20, 115), 95.0);
    EXPECT_EQ(p.samples(latency_kind::nested_entry), 2u);
    EXPECT_DOUBLE_EQ(step_mean(p, latency_kind::nested_entry, path_step::l2_running), 35.0);
    EXPECT_DOUBLE_EQ(step_mean(p, latency_kind::nested_entry, path_step::l0_exit_interrupt), 7.5);
    EXPECT_DOUBLE_EQ(breakdown_sum(p, latency_kind::nested_entry), (25.0 + 95.0) / 2);
    const auto& h = p.histograms(latency_kind::nested_entry, 0);
    ASSERT_EQ(h.size(), 1u);
    EXPECT_EQ(h[0].reason, 0x980u);
    EXPECT_EQ(h[0].hist.count(), 2u);
    EXPECT_DOUBLE_EQ(h[0].hist.max(), 95.0);
}

TEST(path_recorder, excluded_steps_leave_the_total_and_the_breakdown) {
    path_recorder p(1, 1.0);
    p.mark(0, path_step::l1_parse_output, 0);
    p.mark(0, path_step::l1_blocked, 40);
    p.mark(0, path_step::l1_wake, 90);
    p.mark(0, path_step::l1_flush, 95);
    const uint64_t asleep =
        path_recorder::bit(path_step::l1_blocked) | path_recorder::bit(path_step::l1_wake);
    EXPECT_DOUBLE_EQ(p.sample(latency_kind::l1_handling, 0, 0xC00, 0, 100, asleep), 45.0);
    EXPECT_DOUBLE_EQ(step_mean(p, latency_kind::l1_handling, path_step::l1_blocked), 0.0);
    EXPECT_DOUBLE_EQ(breakdown_sum(p, latency_kind::l1_handling), 45.0);
}

TEST(path_recorder, time_before_the_first_mark_is_other) {
    path_recorder p(2, 1.0);
    p.mark(1, path_step::l1_flush, 50);
    EXPECT_DOUBLE_EQ(p.sample(latency_kind::round_trip, 1, 0xC00, 20, 60), 40.0);
    EXPECT_DOUBLE_EQ(step_mean(p, latency_kind::round_trip, path_step::other), 30.0);
    EXPECT_DOUBLE_EQ(step_mean(p, latency_kind::round_trip, path_step::l1_flush), 10.0);
    EXPECT_EQ(p.current(0), path_step::other);  // vCPU 0 has no mark
}

TEST(path_recorder, marks_are_monotonic_and_a_repeated_step_is_no_new_mark) {
    path_recorder p(1, 1.0);
    p.mark(0, path_step::l0_save_regs, 50);
    p.mark(0, path_step::l0_write_output, 40);  // earlier: clamped to 50
    EXPECT_EQ(p.step_at(0, 49), path_step::other);
    EXPECT_EQ(p.step_at(0, 50), path_step::l0_write_output);
    p.mark(0, path_step::l0_write_output, 70);  // the same step goes on
    EXPECT_EQ(p.step_at(0, 65), path_step::l0_write_output);
    EXPECT_EQ(p.current(0), path_step::l0_write_output);
    EXPECT_DOUBLE_EQ(p.sample(latency_kind::nested_exit, 0, 0x980, 50, 80), 30.0);
    EXPECT_DOUBLE_EQ(step_mean(p, latency_kind::nested_exit, path_step::l0_write_output), 30.0);
}

TEST(path_recorder, time_older_than_the_log_is_other) {
    path_recorder p(1, 1.0);
    // 300 marks 10 ns apart, alternating steps: the log keeps the newest 256.
    for (uint64_t i = 0; i < 300; ++i)
        p.mark(0, i % 2 ? path_step::l1_flush : path_step::l1_dtl, 10 * i);
    // The oldest kept mark is number 44, at 440 ns: [0, 440) is other.
    EXPECT_DOUBLE_EQ(p.sample(latency_kind::wake, 0, 4, 0, 3000), 3000.0);
    EXPECT_DOUBLE_EQ(step_mean(p, latency_kind::wake, path_step::other), 440.0);
    EXPECT_DOUBLE_EQ(step_mean(p, latency_kind::wake, path_step::l1_dtl) +
                         step_mean(p, latency_kind::wake, path_step::l1_flush),
                     2560.0);
    EXPECT_EQ(p.step_at(0, 439), path_step::other);
}

TEST(path_recorder, a_reversed_interval_or_an_unknown_vcpu_adds_nothing) {
    path_recorder p(1, 2.0);  // two units per ns
    p.mark(0, path_step::l2_running, 0);
    p.mark(5, path_step::l2_running, 0);  // no such vCPU: ignored
    EXPECT_DOUBLE_EQ(p.sample(latency_kind::timer_interrupt, 0, 1, 10, 5), 0.0);
    EXPECT_DOUBLE_EQ(p.sample(latency_kind::timer_interrupt, 5, 1, 0, 10), 0.0);
    EXPECT_EQ(p.samples(latency_kind::timer_interrupt), 0u);
    EXPECT_DOUBLE_EQ(p.sample(latency_kind::timer_interrupt, 0, 1, 0, 10), 5.0);  // in ns
}
