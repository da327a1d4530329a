// The bad-input table: one TEST per case. Each asserts that loading fails with a
// config_error (never another exception, never a crash) whose message names the place
// (file:line:column, or the --set argument), the key path and what was expected.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "platforms/config/platform_loader.h"
#include "platforms/config/yaml_guard.h"

namespace nestvp {
namespace {

namespace fs = std::filesystem;

const std::string bad_dir = NESTVP_SOURCE_DIR "/tests/platform/bad/";

// `place` is "file.yaml:line:col" (a fixture in bad/) or "--set key=value".
void expect_bad(const std::string& file, const std::vector<std::string>& sets,
                const std::string& place, const std::string& path, const std::string& expected) {
    std::string msg;
    try {
        load_platform(bad_dir + file, sets);
        ADD_FAILURE() << file << " loaded, but it must fail";
        return;
    } catch (const config_error& e) {
        msg = e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "not a config_error: " << e.what();
        return;
    }
    SCOPED_TRACE(msg);
    if (place.rfind("--set", 0) == 0) {
        EXPECT_EQ(msg.rfind(place + ":", 0), 0u) << "the message starts with the --set argument";
    } else {
        EXPECT_NE(msg.find("/bad/" + place + ": "), std::string::npos)
            << "names file:line:column " << place;
    }
    if (!path.empty()) {
        EXPECT_NE(msg.find(": " + path + ": "), std::string::npos) << "names " << path;
    }
    EXPECT_NE(msg.find("expected "), std::string::npos);
    EXPECT_NE(msg.find(", found "), std::string::npos);
    EXPECT_NE(msg.find(expected), std::string::npos) << "says: " << expected;
}

TEST(PlatformBadInput, YamlSyntax) {
    expect_bad("syntax.yaml", {}, "syntax.yaml:4:1", "", "valid YAML");
}

TEST(PlatformBadInput, LeadingCommaIsAnErrorNotAHang) {
    // yaml_guard.h step 1: reported where the parser stuck, with no worker thread left looping.
    expect_bad("leading_comma.yaml", {}, "leading_comma.yaml:3:1", "", "valid YAML");
}

TEST(PlatformBadInput, DeepOrHugeInputIsRefusedBeforeParsing) {
    // yaml_guard.h step 1: bounded before yaml-cpp sees it, and no thread is left behind.
    expect_bad("../../../platforms/reference.yaml", {"l2.hz=" + std::string(200, '[')},
               "--set l2.hz=" + std::string(200, '['), "l2.hz", "nested deeper than 64");
    EXPECT_THROW(load_all_yaml_bounded("a: '" + std::string(k_yaml_max_bytes, 'x') + "'"),
                 yaml_limit_error);
    EXPECT_EQ(load_all_yaml_bounded("a: '[[[['\nb: [1, [2]]  # {{{{\n").size(), 1u);
}

TEST(PlatformBadInput, LeadingCommaInSetValue) {
    expect_bad("../../../platforms/reference.yaml", {"l2.hz=,1"}, "--set l2.hz=,1", "l2.hz", "");
}

TEST(PlatformBadInput, UnknownKey) {
    expect_bad("unknown_key.yaml", {}, "unknown_key.yaml:2:3", "l2.vcpu", "a key of l2");
}

TEST(PlatformBadInput, UnknownKeySuggestsNearest) {
    expect_bad("unknown_key.yaml", {}, "unknown_key.yaml:2:3", "l2.vcpu",
               "did you mean 'l2.vcpus'");
}

TEST(PlatformBadInput, UnknownSection) {
    expect_bad("unknown_section.yaml", {}, "unknown_section.yaml:1:1", "machin", "a top-level key");
}

TEST(PlatformBadInput, IncludeInsideSection) {
    expect_bad("nested_include.yaml", {}, "nested_include.yaml:2:3", "machine.include",
               "a key of machine");
}

TEST(PlatformBadInput, WrongTypeStringForInteger) {
    expect_bad("wrong_type_string.yaml", {}, "wrong_type_string.yaml:2:10", "l2.vcpus",
               "an integer in 1..1024, found 'four'");
}

TEST(PlatformBadInput, WrongTypeFloatForInteger) {
    expect_bad("wrong_type_float.yaml", {}, "wrong_type_float.yaml:2:10", "l2.vcpus",
               "found 4.5 (not an integer)");
}

TEST(PlatformBadInput, WrongTypeScalarForSection) {
    expect_bad("wrong_type_section.yaml", {}, "wrong_type_section.yaml:1:5", "l2",
               "a mapping of vcpus");
}

TEST(PlatformBadInput, WrongTypeTaggedNumber) {
    expect_bad("wrong_type_tagged.yaml", {}, "wrong_type_tagged.yaml:2:15", "run.duration_s",
               "found '10' tagged !!float (write it without a tag)");
}

TEST(PlatformBadInput, ControlByteInSyntaxErrorIsEscaped) {
    expect_bad("control_byte_escape.yaml", {}, "control_byte_escape.yaml:1:11", "",
               "(unknown escape character: \\x01)");
}

TEST(PlatformBadInput, NameNotUtf8) {
    expect_bad("name_not_utf8.yaml", {}, "name_not_utf8.yaml:1:7", "name",
               "expected UTF-8 text, found byte 0xC3 (byte 2 of the value), which is not UTF-8");
}

TEST(PlatformBadInput, SetStringNotUtf8) {
    expect_bad("../../../platforms/reference.yaml", {"name=a\xff"}, "--set name=a\\xff", "name",
               "found byte 0xFF (byte 2 of the value)");
}

TEST(PlatformBadInput, EchoedValueIsPrintable) {
    expect_bad("../../../platforms/reference.yaml", {"run.duration_s='\x1b[2J'"},
               "--set run.duration_s='\\x1b[2J'", "run.duration_s",
               "found the quoted string \"\\x1b[2J\" (write it unquoted)");
}

// Every loader message is printable(), whatever part of the input it echoes (here a key).
TEST(PlatformBadInput, EchoedKeyIsPrintable) {
    expect_bad("../../../platforms/reference.yaml", {"l2.\x1b[2J=1"}, "--set l2.\\x1b[2J=1",
               "l2.\\x1b[2J", "unknown key 'l2.\\x1b[2J'");
}

// Control bytes and bytes outside well-formed UTF-8 (RFC 3629) are named, the rest kept.
TEST(YamlText, PrintableAndUtf8) {
    EXPECT_EQ(printable("caf\xc3\xa9 \x01\x7f"), "caf\xc3\xa9 \\x01\\x7f");
    EXPECT_EQ(printable("a\xc3"), "a\\xc3");
    EXPECT_EQ(
        printable("\xc2\x9b"
                  "2J \xc2\xa0"),
        "\\xc2\\x9b2J \xc2\xa0");  // C1 CSI; NBSP kept                  // a sequence cut short
    EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
    EXPECT_EQ(printable("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
    EXPECT_EQ(first_non_utf8("ok \xe2\x82\xac"), std::string::npos);
    EXPECT_EQ(first_non_utf8("ab\xc0\xaf"), 2u);        // an overlong '/'
    EXPECT_EQ(first_non_utf8("\xf4\x90\x80\x80"), 0u);  // above U+10FFFF
}

TEST(PlatformBadInput, CostSourceNotUtf8) {
    expect_bad("source_not_utf8.yaml", {}, "source_not_utf8.yaml:3:39",
               "l0.costs.hcall_entry.source", "expected UTF-8 text");
}

TEST(PlatformBadInput, WrongTypeQuotedNumber) {
    expect_bad("wrong_type_quoted.yaml", {}, "wrong_type_quoted.yaml:2:15", "run.duration_s",
               "found the quoted string \"10\"");
}

TEST(PlatformBadInput, WrongTypeBoolean) {
    expect_bad("wrong_type_bool.yaml", {}, "wrong_type_bool.yaml:2:14", "l2.nohz_idle",
               "true or false, found 'yes'");
}

TEST(PlatformBadInput, WrongTypeListForInteger) {
    expect_bad("wrong_type_list.yaml", {}, "wrong_type_list.yaml:3:14", "machine.core.threads",
               "found a list");
}

TEST(PlatformBadInput, WrongTypeMapForString) {
    expect_bad("name_map.yaml", {}, "name_map.yaml:1:7", "name", "a string, found a mapping");
}

TEST(PlatformBadInput, EmptyValue) {
    expect_bad("null_value.yaml", {}, "null_value.yaml:2:3", "l1.hz", "found nothing");
}

TEST(PlatformBadInput, NegativeDuration) {
    expect_bad("negative_duration.yaml", {}, "negative_duration.yaml:2:15", "run.duration_s",
               "a number in [1e-06, 1000000], found -1");
}

TEST(PlatformBadInput, ZeroDuration) {
    expect_bad("zero_duration.yaml", {}, "zero_duration.yaml:1:19", "run.duration_s", "found 0");
}

// Below the time resolution a run would run nothing and report it as a result.
TEST(PlatformBadInput, DurationBelowAMicrosecond) {
    expect_bad("../../../platforms/reference.yaml", {"run.duration_s=1e-300"},
               "--set run.duration_s=1e-300", "run.duration_s",
               "a number in [1e-06, 1000000], found 1e-300");
}

TEST(PlatformBadInput, ZeroFrequency) {
    expect_bad("zero_frequency.yaml", {}, "zero_frequency.yaml:3:14", "machine.tb.freq_hz",
               "a frequency in Hz");
}

TEST(PlatformBadInput, FractionalClock) {
    expect_bad("fractional_clock.yaml", {}, "fractional_clock.yaml:2:20", "machine.core.clock_hz",
               "found 2.5");
}

TEST(PlatformBadInput, NegativeSeed) {
    expect_bad("negative_seed.yaml", {}, "negative_seed.yaml:2:9", "run.seed",
               "an unsigned integer, found -3");
}

TEST(PlatformBadInput, UnknownPolicy) {
    expect_bad("unknown_policy.yaml", {}, "unknown_policy.yaml:2:15", "l1.dec_policy",
               "one of cancel|no-cancel|clear-on-entry|cancel-poll, found 'fast'");
}

TEST(PlatformBadInput, UnknownApi) {
    expect_bad("unknown_api.yaml", {}, "unknown_api.yaml:2:8", "l0.api", "one of v1|v2");
}

TEST(PlatformBadInput, UnknownTimerImpl) {
    expect_bad("unknown_timer_impl.yaml", {}, "unknown_timer_impl.yaml:3:11", "machine.timer.impl",
               "one of tlm|rtl|lockstep");
}

TEST(PlatformBadInput, ZeroVcpus) {
    expect_bad("vcpus_zero.yaml", {}, "vcpus_zero.yaml:2:10", "l2.vcpus",
               "an integer in 1..1024, found 0");
}

TEST(PlatformBadInput, TooManyVcpus) {
    expect_bad("vcpus_too_many.yaml", {}, "vcpus_too_many.yaml:2:10", "l2.vcpus", "found 2000");
}

TEST(PlatformBadInput, ThreadsOutOfRange) {
    expect_bad("threads_nine.yaml", {}, "threads_nine.yaml:3:14", "machine.core.threads",
               "an integer in 1..8, found 9");
}

TEST(PlatformBadInput, DecBitsOutOfRange) {
    expect_bad("dec_bits_small.yaml", {}, "dec_bits_small.yaml:2:21", "machine.timer.dec_bits",
               "an integer in 32..64");
}

TEST(PlatformBadInput, SmtTableWrongLength) {
    expect_bad("smt_wrong_length.yaml", {}, "smt_wrong_length.yaml:4:16", "machine.core.smt_speed",
               "4 values, one per active-thread count");
}

TEST(PlatformBadInput, ThreadsWithoutMatchingSmtTable) {
    expect_bad("smt_threads_mismatch.yaml", {}, "smt_threads_mismatch.yaml:3:14",
               "machine.core.threads", "to match the 4 values");
}

TEST(PlatformBadInput, SmtTableIncreasing) {
    expect_bad("smt_increasing.yaml", {}, "smt_increasing.yaml:3:16", "machine.core.smt_speed[2]",
               "non-increasing values");
}

TEST(PlatformBadInput, SmtSpeedAboveOne) {
    expect_bad("smt_out_of_range.yaml", {}, "smt_out_of_range.yaml:3:22",
               "machine.core.smt_speed[1]", "a number in (0, 1], found 1.2");
}

TEST(PlatformBadInput, CostWithoutSource) {
    expect_bad("cost_without_source.yaml", {}, "cost_without_source.yaml:3:23",
               "l0.costs.partition_switch", "found no source");
}

TEST(PlatformBadInput, CostWithEmptySource) {
    expect_bad("cost_empty_source.yaml", {}, "cost_empty_source.yaml:3:46",
               "l0.costs.partition_switch.source", "a non-empty string");
}

TEST(PlatformBadInput, CostWithoutCycles) {
    expect_bad("cost_without_cycles.yaml", {}, "cost_without_cycles.yaml:4:7", "l1.costs.wake",
               "found no cycles");
}

TEST(PlatformBadInput, UnknownCost) {
    expect_bad("cost_unknown.yaml", {}, "cost_unknown.yaml:3:5", "l0.costs.partition_switchx",
               "a key of l0.costs");
}

// Stated values (docs/platform-file.md, "Kinds").
TEST(PlatformBadInput, StatedUnknownKind) {
    expect_bad("stated_unknown_kind.yaml", {}, "stated_unknown_kind.yaml:2:27", "l2.vcpus.kind",
               "sourced, assumed, calibrated or measured");
}

TEST(PlatformBadInput, StatedAssumedNumberNeedsARange) {
    expect_bad("stated_assumed_no_range.yaml", {}, "stated_assumed_no_range.yaml:2:27", "l2.vcpus",
               "a range [lo, hi] with kind: assumed");
}

TEST(PlatformBadInput, StatedRangeMustHoldTheValue) {
    expect_bad("stated_outside_range.yaml", {}, "stated_outside_range.yaml:2:62", "l2.vcpus.range",
               "a range that holds the value (4)");
}

TEST(PlatformBadInput, StatedValueNeedsASource) {
    expect_bad("stated_no_source.yaml", {}, "stated_no_source.yaml:2:10", "l2.vcpus", "no source");
}

TEST(PlatformBadInput, StatedValueNeedsAValue) {
    expect_bad("stated_no_value.yaml", {}, "stated_no_value.yaml:2:10", "l2.vcpus", "no value");
}

// A calibrated value names the one published figure it was set from (reference-result.md,
// "Calibration and prediction"): a row of the reference table, on the cancel column.
TEST(PlatformBadInput, AtMostThreeCalibratedValues) {
    expect_bad("stated_four_calibrated.yaml", {}, "stated_four_calibrated.yaml:6:13",
               "l2.devices.irq_hz",
               "at most three calibrated values (l2.vcpus, l2.hz and l2.housekeeping_hz are), "
               "found a fourth");
}

TEST(PlatformBadInput, TwoCalibratedValuesOnOneFigure) {
    expect_bad("calibrated_same_figure.yaml", {}, "calibrated_same_figure.yaml:4:13",
               "l2.devices.irq_hz",
               "one calibrated value per published figure (l2.housekeeping_hz is calibrated on "
               "kvm_guest_exit, cancel), found a second one on kvm_guest_exit, cancel");
}

TEST(PlatformBadInput, CalibratedValueWithoutItsFigure) {
    expect_bad("calibrated_no_figure.yaml", {}, "calibrated_no_figure.yaml:2:38",
               "l2.housekeeping_hz",
               "expected calibrated_on: {metric, policy} on a calibrated value (the published "
               "figure it was set from), found no calibrated_on");
}

TEST(PlatformBadInput, CalibratedCostWithoutItsFigure) {
    expect_bad("calibrated_cost_no_figure.yaml", {}, "calibrated_cost_no_figure.yaml:3:44",
               "workload.costs.arithoh_iteration",
               "found no calibrated_on (the source text starts 'calibrated')");
}

// --set cannot state a figure: a source text that makes a cost calibrated is refused.
TEST(PlatformBadInput, SetSourceMakesACostCalibratedWithoutAFigure) {
    expect_bad("../../../platforms/reference.yaml", {"l2.costs.tick.source=calibrated: a guess"},
               "--set l2.costs.tick.source=calibrated: a guess", "l2.costs.tick",
               "found a source text that starts 'calibrated' and no calibrated_on");
}

TEST(PlatformBadInput, FigureOnAValueThatIsNotCalibrated) {
    expect_bad("calibrated_on_not_calibrated.yaml", {}, "calibrated_on_not_calibrated.yaml:2:54",
               "l2.vcpus.calibrated_on",
               "calibrated_on only on a calibrated value, found a sourced value");
}

TEST(PlatformBadInput, FigureOnACostThatIsNotCalibrated) {
    expect_bad("calibrated_on_cost_not_calibrated.yaml", {},
               "calibrated_on_cost_not_calibrated.yaml:3:51", "l2.costs.tick.calibrated_on",
               "found a sourced value (its source text does not start 'calibrated')");
}

TEST(PlatformBadInput, FigureWithAnUnknownMetric) {
    expect_bad("calibrated_on_unknown_metric.yaml", {}, "calibrated_on_unknown_metric.yaml:2:92",
               "l2.housekeeping_hz.calibrated_on.metric",
               "one of kvm_guest_exit|arithoh_count|gsb_recv (a row of the reference table), "
               "found 'exits'");
}

TEST(PlatformBadInput, FigureWithAnUnknownPolicy) {
    expect_bad("calibrated_on_unknown_policy.yaml", {}, "calibrated_on_unknown_policy.yaml:2:116",
               "l2.housekeeping_hz.calibrated_on.policy", "found 'fast'");
}

// The no-cancel column is predicted: no value may be set from it.
TEST(PlatformBadInput, FigureOnTheNoCancelColumn) {
    expect_bad("calibrated_on_no_cancel.yaml", {}, "calibrated_on_no_cancel.yaml:2:116",
               "l2.housekeeping_hz.calibrated_on.policy",
               "cancel (only the cancel column, the kernel as fixed, may be calibrated on), "
               "found no-cancel, whose figures are predicted");
}

TEST(PlatformBadInput, FigureWithAnUnknownKey) {
    expect_bad("calibrated_on_unknown_key.yaml", {}, "calibrated_on_unknown_key.yaml:6:61",
               "l2.housekeeping_hz.calibrated_on.value",
               "a key of calibrated_on (metric, policy), found unknown key 'value'");
}

TEST(PlatformBadInput, FigureWithoutAPolicy) {
    expect_bad("calibrated_on_no_policy.yaml", {}, "calibrated_on_no_policy.yaml:2:83",
               "l2.housekeeping_hz.calibrated_on", "found no policy");
}

TEST(PlatformBadInput, FigureAsAScalar) {
    expect_bad("calibrated_on_scalar.yaml", {}, "calibrated_on_scalar.yaml:2:83",
               "l2.housekeeping_hz.calibrated_on",
               "{metric: kvm_guest_exit|arithoh_count|gsb_recv, policy: cancel}, found "
               "'kvm_guest_exit'");
}

TEST(PlatformBadInput, StatedAssumedCostNeedsARange) {
    expect_bad("stated_cost_assumed_no_range.yaml", {}, "stated_cost_assumed_no_range.yaml:3:11",
               "l2.costs.tick", "a range [lo, hi] with kind: assumed");
}

TEST(PlatformBadInput, UnknownCostField) {
    expect_bad("cost_unknown_field.yaml", {}, "cost_unknown_field.yaml:3:37", "l2.costs.tick.note",
               "a cost key (cycles, source, range, kind or calibrated_on)");
}

TEST(PlatformBadInput, CostAsBareNumber) {
    expect_bad("cost_scalar.yaml", {}, "cost_scalar.yaml:3:23", "l0.costs.partition_switch",
               "{cycles: a number");
}

TEST(PlatformBadInput, NegativeCost) {
    expect_bad("cost_negative.yaml", {}, "cost_negative.yaml:3:33",
               "workload.costs.arithoh_iteration.cycles", "found -9");
}

TEST(PlatformBadInput, DuplicateKey) {
    expect_bad("duplicate_key.yaml", {}, "duplicate_key.yaml:4:3", "l2.vcpus",
               "each key once, found 'vcpus' again (first at line 2)");
}

TEST(PlatformBadInput, DuplicateSection) {
    expect_bad("duplicate_section.yaml", {}, "duplicate_section.yaml:3:1", "l1", "each key once");
}

TEST(PlatformBadInput, ArithohCopiesExceedVcpus) {
    expect_bad("copies_exceed_vcpus.yaml", {}, "copies_exceed_vcpus.yaml:4:19",
               "workload.arithoh_copies", "workload.arithoh_copies <= l2.vcpus");
}

TEST(PlatformBadInput, TraceWindowEndBeforeStart) {
    expect_bad("trace_window.yaml", {}, "trace_window.yaml:2:39", "run.trace_window.end_s",
               "a time after start_s");
}

TEST(PlatformBadInput, TraceWindowAfterTheRun) {
    expect_bad("trace_window_after_run.yaml", {}, "trace_window_after_run.yaml:3:27",
               "run.trace_window.start_s", "a window from 2 s in a 1 s run");
}

TEST(PlatformBadInput, IncludeCycle) {
    expect_bad("include_cycle_a.yaml", {}, "include_cycle_b.yaml:2:10", "include",
               "include_cycle_a.yaml -> include_cycle_b.yaml -> include_cycle_a.yaml");
}

TEST(PlatformBadInput, IncludeSelf) {
    expect_bad("include_self.yaml", {}, "include_self.yaml:1:11", "include",
               "no cycle of includes");
}

TEST(PlatformBadInput, MissingInclude) {
    expect_bad("missing_include.yaml", {}, "missing_include.yaml:2:10", "include",
               "found no file at");
}

TEST(PlatformBadInput, IncludeDirectory) {
    expect_bad("include_directory.yaml", {}, "include_directory.yaml:2:10", "include",
               "which is not a file");
}

TEST(PlatformBadInput, IncludeWrongType) {
    expect_bad("include_map.yaml", {}, "include_map.yaml:1:10", "include",
               "a file name or a list of file names");
}

TEST(PlatformBadInput, ErrorInIncludedFileNamesBoth) {
    expect_bad("include_bad_in_base.yaml", {}, "wrong_type_string.yaml:2:10", "l2.vcpus",
               "(included from ");
}

TEST(PlatformBadInput, EmptyFile) {
    expect_bad("empty.yaml", {}, "empty.yaml:1:1", "", "found an empty file");
}

TEST(PlatformBadInput, CommentsOnlyFile) {
    expect_bad("comments_only.yaml", {}, "comments_only.yaml:1:1", "", "found an empty file");
}

TEST(PlatformBadInput, TwoDocuments) {
    expect_bad("two_documents.yaml", {}, "two_documents.yaml:3:1", "", "one YAML document");
}

TEST(PlatformBadInput, RootIsAList) {
    expect_bad("root_list.yaml", {}, "root_list.yaml:1:1", "", "a mapping of sections");
}

TEST(PlatformBadInput, SetUnknownKey) {
    expect_bad("../../../platforms/reference.yaml", {"l2.vcpu=3"}, "--set l2.vcpu=3", "l2.vcpu",
               "did you mean 'l2.vcpus'");
}

TEST(PlatformBadInput, SetUnknownKeyFarFromAny) {
    expect_bad("../../../platforms/reference.yaml", {"zzzz=3"}, "--set zzzz=3", "zzzz",
               "unknown key 'zzzz'");
}

TEST(PlatformBadInput, SetBadValue) {
    expect_bad("../../../platforms/reference.yaml", {"l2.vcpus=x"}, "--set l2.vcpus=x", "l2.vcpus",
               "an integer in 1..1024, found 'x'");
}

TEST(PlatformBadInput, SetOutOfRange) {
    expect_bad("../../../platforms/reference.yaml", {"run.duration_s=-2"},
               "--set run.duration_s=-2", "run.duration_s", "found -2");
}

TEST(PlatformBadInput, SetWithoutEquals) {
    expect_bad("../../../platforms/reference.yaml", {"l2.vcpus"}, "--set l2.vcpus", "",
               "key=value, found no '='");
}

TEST(PlatformBadInput, SetSection) {
    expect_bad("../../../platforms/reference.yaml", {"l2=3"}, "--set l2=3", "l2",
               "the section 'l2'");
}

TEST(PlatformBadInput, SetUnknownPolicy) {
    expect_bad("../../../platforms/reference.yaml", {"l1.dec_policy=nocancel"},
               "--set l1.dec_policy=nocancel", "l1.dec_policy",
               "one of cancel|no-cancel|clear-on-entry|cancel-poll");
}

TEST(PlatformBadInput, SetEmptyNumber) {
    expect_bad("../../../platforms/reference.yaml", {"run.seed="}, "--set run.seed=", "run.seed",
               "found nothing");
}

TEST(PlatformBadInput, SetBadCostCycles) {
    expect_bad("../../../platforms/reference.yaml", {"l0.costs.partition_switch=fast"},
               "--set l0.costs.partition_switch=fast", "l0.costs.partition_switch",
               "a number in [0, 1000000000]");
}

TEST(PlatformBadInput, SetBreaksCrossCheck) {
    expect_bad("../../../platforms/reference.yaml", {"workload.arithoh_copies=9"},
               "--set workload.arithoh_copies=9", "workload.arithoh_copies", "<= l2.vcpus");
}

// The old device keys were folded into l2.irqchip and l2.devices.irq_hz: they are unknown now.
TEST(PlatformBadInput, FoldedDeviceKeysAreUnknown) {
    expect_bad("../../../platforms/reference.yaml", {"l2.devices.mmio_hz=10"},
               "--set l2.devices.mmio_hz=10", "l2.devices.mmio_hz",
               "a key listed by `nestvp params`");
}

TEST(PlatformBadInput, UnknownIrqchip) {
    expect_bad("../../../platforms/reference.yaml", {"l2.irqchip=xics"}, "--set l2.irqchip=xics",
               "l2.irqchip", "emulated-xive");
}

TEST(PlatformBadInput, NegativeIpiRate) {
    expect_bad("../../../platforms/reference.yaml", {"l2.devices.ipi_hz=-5"},
               "--set l2.devices.ipi_hz=-5", "l2.devices.ipi_hz", "a number in [0, 1000000]");
}

// More vCPUs than the cores' threads: refused at load (exit 2), naming the key given last.
TEST(PlatformBadInput, MoreVcpusThanThreads) {
    expect_bad("../../../platforms/reference.yaml", {"l2.vcpus=17"}, "--set l2.vcpus=17",
               "l2.vcpus", "machine.cores x machine.core.threads >= l2.vcpus");
    expect_bad("../../../platforms/reference.yaml", {"l2.vcpus=12", "machine.cores=1"},
               "--set machine.cores=1", "machine.cores", "found 1 cores of 8 threads for 12 vCPUs");
}

// arithoh counts iterations of this cost: at 0 cycles it would count without end.
TEST(PlatformBadInput, FreeArithohIteration) {
    expect_bad("../../../platforms/reference.yaml", {"workload.costs.arithoh_iteration=0"},
               "--set workload.costs.arithoh_iteration=0", "workload.costs.arithoh_iteration",
               "cycles > 0");
}

// A tick shorter than one time-base tick (it used to divide by zero at run time).
TEST(PlatformBadInput, TickShorterThanATimeBaseTick) {
    expect_bad("../../../platforms/reference.yaml", {"machine.tb.freq_hz=99"},
               "--set machine.tb.freq_hz=99", "machine.tb.freq_hz", "l1.hz <= machine.tb.freq_hz");
    expect_bad("../../../platforms/reference.yaml", {"machine.tb.freq_hz=1000", "l2.hz=2000"},
               "--set l2.hz=2000", "l2.hz", "l2.hz <= machine.tb.freq_hz");
}

// An IPI goes to another vCPU: a one-vCPU guest cannot send any.
TEST(PlatformBadInput, IpiWithOneVcpu) {
    expect_bad("../../../platforms/reference.yaml", {"l2.vcpus=1", "l2.devices.ipi_hz=100"},
               "--set l2.devices.ipi_hz=100", "l2.devices.ipi_hz",
               "l2.vcpus >= 2 when l2.devices.ipi_hz > 0");
}

TEST(PlatformBadInput, SetListSyntaxError) {
    expect_bad("../../../platforms/reference.yaml", {"machine.core.smt_speed=[1,0.5"},
               "--set machine.core.smt_speed=[1,0.5", "machine.core.smt_speed", "a YAML value");
}

// The SMT table comes from an included core file; the file's own `threads` is the later key.
TEST(PlatformBadInput, ThreadsOverrideIncludedSmtTable) {
    expect_bad("threads_override_base_table.yaml", {}, "threads_override_base_table.yaml:4:14",
               "machine.core.threads", "8 to match the 8 values of machine.core.smt_speed");
}

TEST(PlatformBadInput, MissingFile) {
    try {
        load_platform(bad_dir + "no_such_platform.yaml");
        FAIL() << "a missing file must fail";
    } catch (const config_error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("/bad/no_such_platform.yaml: "), std::string::npos) << msg;
        EXPECT_NE(msg.find("expected a readable platform file, found no such file"),
                  std::string::npos)
            << msg;
    }
}

TEST(PlatformBadInput, DirectoryInsteadOfFile) {
    try {
        load_platform(bad_dir);
        FAIL() << "a directory must fail";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("found something that is not a file"),
                  std::string::npos)
            << e.what();
    }
}

// Byte-level mutations of the reference platform: each either loads or fails with a
// config_error; nothing else escapes (no yaml-cpp exception, no crash).
TEST(PlatformBadInput, MutatedReferenceNeverCrashes) {
    std::ifstream in(NESTVP_SOURCE_DIR "/platforms/reference.yaml");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string original = ss.str();
    const std::string alphabet = "{}[]:,-#'\"&*!|>%@` \n\t0123456789.eE+xyz";
    std::mt19937 rng(12345);
    const fs::path dir = fs::temp_directory_path() / "nestvp_mutations";
    fs::create_directories(dir);
    fs::copy_file(NESTVP_SOURCE_DIR "/platforms/cores/power10-smt8.yaml", dir / "power10-smt8.yaml",
                  fs::copy_options::overwrite_existing);
    int failures = 0;
    for (int i = 0; i < 200; ++i) {
        std::string text = original;
        // Keep the include resolvable next to the mutated copy.
        const auto inc = text.find("cores/");
        if (inc != std::string::npos) text.erase(inc, 6);
        for (int k = 0; k < 3; ++k) {
            const size_t pos = rng() % text.size();
            switch (rng() % 3) {
                case 0:
                    text.erase(pos, 1 + rng() % 4);
                    break;
                case 1:
                    text.insert(pos, 1, alphabet[rng() % alphabet.size()]);
                    break;
                default:
                    text[pos] = alphabet[rng() % alphabet.size()];
                    break;
            }
        }
        const fs::path f = dir / "mutated.yaml";
        std::ofstream(f) << text;
        try {
            load_platform(f.string());
        } catch (const config_error& e) {
            ++failures;
            EXPECT_NE(std::string(e.what()).find("expected "), std::string::npos) << e.what();
        } catch (const std::exception& e) {
            ADD_FAILURE() << "mutation " << i << " escaped as " << e.what() << "\n" << text;
        }
    }
    EXPECT_GT(failures, 50);  // most mutations break something
}

}  // namespace
}  // namespace nestvp
