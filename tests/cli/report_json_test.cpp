// JSON writer/reader and the run record layout.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <limits>

#include "platforms/config/param_schema.h"
#include "platforms/config/platform_loader.h"
#include "platforms/records/config_json.h"
#include "platforms/records/json.h"
#include "platforms/records/record_diff.h"
#include "platforms/records/run_record.h"
#include "platforms/records/text_files.h"

namespace nestvp {
namespace {

run_record sample_record() {
    run_record r;
    r.platform = "reference";
    r.tool_version = "0.1.0";
    r.tool_commit = "abc1234";
    r.platform_file = "platforms/reference.yaml";
    r.platform_sha256 = std::string(64, 'a');
    r.seed = 7;
    r.settings = {{"l1.dec_policy", "cancel"}, {"run.duration_s", "0.2"}};
    r.result.sim_seconds = 0.2;
    r.result.wall_seconds = 0.0123;
    r.result.sc_events = 98765;
    r.result.partial = false;
    auto& m = r.result.metrics;
    m.kvm_guest_exit = 152441;
    m.gsb_recv = 28110;
    m.gsb_send = 7;
    m.h_guest_run_vcpu = 152441;
    m.h_enter_nested = 0;
    m.exits_by_reason = {{"0x980", 100}, {"0xc00", 52}, {"0x0", 3}};
    m.arithoh_count = 3403089673ull;
    latency_report& e = m.latencies["nested_entry_latency_ns"];
    e.all = {1000, 850.5, 812.5, 1200, 1500.25, 2000};
    e.by_reason = {{"0x980 HDEC", {600, 800, 790, 900, 1000, 1100}},
                   {"0xc00 H_CEDE", {400, 900, 880, 1300, 1500.25, 2000}}};
    e.by_vcpu = {{{"0x980 HDEC", {600, 800, 790, 900, 1000, 1100}}},
                 {{"0xc00 H_CEDE", {400, 900, 880, 1300, 1500.25, 2000}}}};
    e.breakdown = {{"L1 H_GUEST_RUN_VCPU", 300.25}, {"L0 \"switch\"", 550.25}};
    e.histogram = {{790.5, 600}, {880, 399}, {2000, 1}};
    latency_report& t = m.latencies["timer_interrupt_latency_ns"];
    t.all = {999, 640, 600, 800, 900.1, 4321};
    t.by_reason = {{"in L2", {900, 600, 590, 700, 800, 900}},
                   {"blocked in L1", {99, 1000, 0, 0, 0, 4321}}};
    t.histogram = {{600, 999}};
    m.counters = {{"l0.hcalls", 5}, {"l1.blocks", 6}, {"l2.timer_interrupts", 7}};
    m.vcpu_counters = {{{"l1.guest_exits", 2}}, {{"l1.blocks", 6}, {"l1.guest_exits", 150}}};
    return r;
}

TEST(ReportJson, NumbersUseTheShortestRoundTripForm) {
    EXPECT_EQ(json_number(0.1), "0.1");
    EXPECT_EQ(json_number(1500.25), "1500.25");
    EXPECT_EQ(json_number(1500.0), "1500");  // whole numbers without ".0"
    EXPECT_EQ(json_number(-2.0), "-2");
    EXPECT_EQ(json_number(-0.0), "0");
    EXPECT_EQ(json_number(1.0 / 3.0), "0.3333333333333333");
    EXPECT_EQ(json_number(1e300), "1e+300");
    EXPECT_EQ(json_number(std::numeric_limits<double>::infinity()), "null");
    EXPECT_EQ(json_number(std::nan("")), "null");
    EXPECT_EQ(json_number(uint64_t(18446744073709551615ull)), "18446744073709551615");
    // Documents hold the same form.
    EXPECT_EQ(json_text(json::array({json_num(2.5), json_num(3.0), json_num(-0.0)})),
              "[\n  2.5,\n  3,\n  0\n]\n");
}

TEST(ReportJson, StringsAreEscaped) {
    EXPECT_EQ(json_quote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
    const json v = parse_json(json_quote("tab\there \"q\" \x1f"), "t");
    EXPECT_EQ(v.get<std::string>(), "tab\there \"q\" \x1f");
}

TEST(ReportJson, DocumentsIndentAndKeepOrder) {
    json w = json::object();
    w["z"] = 1;
    w["a"] = json::object();
    w["m"] = json::object({{"k", "v"}});
    w["b"] = true;
    EXPECT_EQ(
        json_text(w),
        "{\n  \"z\": 1,\n  \"a\": {},\n  \"m\": {\n    \"k\": \"v\"\n  },\n  \"b\": true\n}\n");
}

TEST(ReportJson, ParserReportsLineAndColumn) {
    try {
        parse_json("{\n  \"a\": 1,\n  \"b\" 2\n}", "x.json");
        FAIL() << "no error";
    } catch (const json_parse_error& e) {
        // The place is ours, the wording nlohmann-json's.
        EXPECT_EQ(std::string(e.what()).rfind("x.json:3:7: ", 0), 0u) << e.what();
        EXPECT_NE(std::string(e.what()).find("expected ':'"), std::string::npos) << e.what();
    }
    try {
        parse_json("[1,\n 2,\n x]", "y.json");
        FAIL() << "no error";
    } catch (const json_parse_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind("y.json:3:2: ", 0), 0u) << e.what();
    }
    EXPECT_THROW(parse_json("[1, 2", "t"), json_parse_error);
    EXPECT_THROW(parse_json("{} x", "t"), json_parse_error);
    EXPECT_THROW(parse_json("\"abc", "t"), json_parse_error);
    EXPECT_THROW(parse_json("01x", "t"), json_parse_error);
    EXPECT_THROW(parse_json(std::string(100, '['), "t"), json_parse_error);
}

TEST(ReportJson, ParserReadsAllKinds) {
    const json v = parse_json(R"({"n": null, "t": true, "f": false, "i": 18446744073709551615,
        "d": -1.5e3, "s": "x\u00e9", "a": [1, [2]], "o": {"k": {}}})",
                              "t");
    ASSERT_TRUE(v.is_object());
    EXPECT_TRUE(v["n"].is_null());
    EXPECT_TRUE(v["t"].get<bool>());
    EXPECT_FALSE(v["f"].get<bool>());
    EXPECT_TRUE(v["i"].is_number_unsigned());
    EXPECT_EQ(v["i"].get<uint64_t>(), 18446744073709551615ull);
    EXPECT_FALSE(v["d"].is_number_unsigned());
    EXPECT_DOUBLE_EQ(v["d"].get<double>(), -1500);
    EXPECT_EQ(v["s"].get<std::string>(), "x\xc3\xa9");
    EXPECT_EQ(v["a"].size(), 2u);
    EXPECT_TRUE(v["o"]["k"].is_object());
    EXPECT_FALSE(v.contains("missing"));
}

TEST(RunRecord, JsonHasTheDocumentedKeysInOrder) {
    const std::string j = run_record_json(sample_record());
    const char* keys[] = {"\"schema_version\": 2",
                          "\"tool\"",
                          "\"version\"",
                          "\"commit\"",
                          "\"platform\"",
                          "\"platform_file\"",
                          "\"sha256\"",
                          "\"seed\": 7",
                          "\"settings\"",
                          "\"l1.dec_policy\"",
                          "\"run.duration_s\"",
                          "\"sim_seconds\"",
                          "\"wall_seconds\"",
                          "\"sc_events\"",
                          "\"partial\"",
                          "\"units\"",
                          "\"sim_seconds\": \"s\"",
                          "\"metrics.latencies\": \"ns\"",
                          "\"metrics.counters.l1.blocks\": \"count\"",
                          "\"metrics\"",
                          "\"kvm_guest_exit\"",
                          "\"gsb_recv\"",
                          "\"gsb_send\"",
                          "\"h_guest_run_vcpu\"",
                          "\"h_enter_nested\"",
                          "\"exits_by_reason\"",
                          "\"0x0\"",
                          "\"0x980\"",
                          "\"0xc00\"",
                          "\"arithoh_count\"",
                          "\"latencies\"",
                          "\"nested_entry_latency_ns\"",
                          "\"all\"",
                          "\"count\"",
                          "\"mean\"",
                          "\"p50\"",
                          "\"p90\"",
                          "\"p99\"",
                          "\"max\"",
                          "\"by_reason\"",
                          "\"0x980 HDEC\"",
                          "\"0xc00 H_CEDE\"",
                          "\"by_vcpu\"",
                          "\"breakdown\"",
                          "\"step\": \"L1 H_GUEST_RUN_VCPU\"",
                          "\"histogram\"",
                          "[\n            790.5,\n            600\n          ]",
                          "\"nested_exit_latency_ns\"",
                          "\"l1_handling_latency_ns\"",
                          "\"round_trip_latency_ns\"",
                          "\"timer_interrupt_latency_ns\"",
                          "\"in L2\"",
                          "\"wake_latency_ns\"",
                          "\"counters\"",
                          "\"l0.hcalls\"",
                          "\"l1.blocks\"",
                          "\"l2.timer_interrupts\"",
                          "\"vcpus\"",
                          "\"0\"",
                          "\"1\""};
    size_t pos = 0;
    for (const char* k : keys) {
        const size_t p = j.find(k, pos);
        ASSERT_NE(p, std::string::npos) << k << " missing or out of order in\n" << j;
        pos = p;
    }
    EXPECT_NE(j.find("\"arithoh_count\": 3403089673"), std::string::npos);
    EXPECT_NE(j.find("\"p99\": 1500.25"), std::string::npos);
    EXPECT_NE(j.find("\"step\": \"L0 \\\"switch\\\"\",\n            \"mean_ns\": 550.25"),
              std::string::npos)
        << j;
    // A kind with no sample is still written, with count 0 and empty lists.
    EXPECT_NE(j.find("\"wake_latency_ns\": {\n        \"all\": {\n          \"count\": 0,"),
              std::string::npos)
        << j;
    EXPECT_NE(j.find("\"by_vcpu\": [],"), std::string::npos);
    EXPECT_NE(j.find("\"partial\": false"), std::string::npos);
    EXPECT_EQ(j.find("samples"), std::string::npos);  // samples are not written to JSON
}

TEST(RunRecord, RoundTripIsByteIdentical) {
    const run_record r = sample_record();
    const std::string j1 = run_record_json(r);
    EXPECT_EQ(j1, run_record_json(r));
    const run_record back = parse_run_record(j1, "r.json");
    EXPECT_EQ(back.platform, "reference");
    ASSERT_EQ(back.settings.size(), 2u);
    EXPECT_EQ(back.settings[0].first, "l1.dec_policy");
    EXPECT_EQ(back.result.metrics.exits_by_reason.at("0xc00"), 52u);
    EXPECT_EQ(back.result.metrics.counters.at("l1.blocks"), 6u);
    ASSERT_EQ(back.result.metrics.vcpu_counters.size(), 2u);
    EXPECT_EQ(back.result.metrics.vcpu_counters[1].at("l1.guest_exits"), 150u);
    const auto& lat = back.result.metrics.latencies;
    ASSERT_EQ(lat.size(), latency_kinds().size());
    const latency_report& e = lat.at("nested_entry_latency_ns");
    EXPECT_EQ(e.all.count, 1000u);
    EXPECT_DOUBLE_EQ(e.all.mean, 850.5);
    EXPECT_DOUBLE_EQ(e.all.p90, 1200);
    EXPECT_DOUBLE_EQ(e.by_reason.at("0xc00 H_CEDE").p99, 1500.25);
    ASSERT_EQ(e.by_vcpu.size(), 2u);
    EXPECT_EQ(e.by_vcpu[1].at("0xc00 H_CEDE").count, 400u);
    ASSERT_EQ(e.breakdown.size(), 2u);
    EXPECT_EQ(e.breakdown[1].step, "L0 \"switch\"");  // order and text kept
    EXPECT_DOUBLE_EQ(e.breakdown[0].mean_ns, 300.25);
    ASSERT_EQ(e.histogram.size(), 3u);
    EXPECT_EQ(e.histogram[2], (std::pair<double, uint64_t>(2000, 1)));
    EXPECT_DOUBLE_EQ(lat.at("timer_interrupt_latency_ns").all.p99, 900.1);
    EXPECT_EQ(lat.at("timer_interrupt_latency_ns").by_reason.at("blocked in L1").count, 99u);
    EXPECT_EQ(lat.at("wake_latency_ns").all.count, 0u);
    EXPECT_EQ(run_record_json(back), j1);
}

// The record's provenance names the figure of each calibrated value, and `run --from` gets it
// back; a fractional cost keeps its fraction in the record's config.
TEST(RunRecord, ProvenanceCarriesTheCalibratedFigure) {
    const platform_config cfg =
        load_platform(NESTVP_SOURCE_DIR "/tests/platform/good/three_calibrated.yaml");
    const json prov = provenance_json(cfg);
    const json& cost = prov["workload.costs.arithoh_iteration"];
    EXPECT_EQ(cost["kind"], "calibrated");
    EXPECT_EQ(cost["calibrated_on"]["metric"], "arithoh_count");
    EXPECT_EQ(cost["calibrated_on"]["policy"], "cancel");
    EXPECT_EQ(prov["l2.devices.irq_hz"]["calibrated_on"]["metric"], "gsb_recv");
    EXPECT_FALSE(prov["l2.vcpus"].contains("calibrated_on"));  // a default
    const json config = config_json(cfg);
    EXPECT_EQ(json_text(config["workload.costs.arithoh_iteration"]["cycles"]), "8.8\n");
    platform_config back = config_from_json(config, "record");
    provenance_from_json(prov, back, "record");
    EXPECT_EQ(back.workload.arithoh_iteration.cycles, 8.8);
    for (const char* key :
         {"l2.housekeeping_hz", "l2.devices.irq_hz", "workload.costs.arithoh_iteration"}) {
        const value_provenance p = provenance_of(back, *find_param(key));
        EXPECT_EQ(p.kind, "calibrated") << key;
        EXPECT_EQ(figure_text(p.calibrated_on),
                  figure_text(provenance_of(cfg, *find_param(key)).calibrated_on))
            << key;
    }
    json bad = prov;
    bad["l2.housekeeping_hz"]["calibrated_on"] = "kvm_guest_exit";
    EXPECT_THROW(provenance_from_json(bad, back, "record"), std::runtime_error);
}

TEST(RunRecord, ParseErrorsNameTheKey) {
    std::string j = run_record_json(sample_record());
    const std::string bad = j.replace(j.find("\"gsb_recv\""), 10, "\"gsb_rcv\"");
    try {
        parse_run_record(bad, "p.json");
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "p.json: metrics.gsb_recv: missing");
    }
    EXPECT_THROW(parse_run_record("[]", "p.json"), std::runtime_error);
    // Malformed latencies: each error names the place.
    const std::string good = run_record_json(sample_record());
    // Structural edits: the error must name the place whatever the layout.
    const auto error_in = [&](const std::function<void(json&)>& edit) {
        json d = run_record_doc(sample_record());
        edit(d);
        try {
            parse_run_record(json_text(d), "p.json");
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const auto error_of = [&](const std::string& from, const std::string& to) {
        std::string t = good;
        const size_t at = t.find(from);
        if (at == std::string::npos) return "'" + from + "' not in the record";
        t.replace(at, from.size(), to);
        try {
            parse_run_record(t, "p.json");
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(error_of("\"wake_latency_ns\"", "\"sleep_latency_ns\""),
              "p.json: metrics.latencies.wake_latency_ns: missing");
    EXPECT_EQ(error_of("\"latencies\": {", "\"latencies\": {\"x_ns\": {}, "),
              "p.json: metrics.latencies.x_ns: unknown latency");
    EXPECT_EQ(error_of("\"mean\": 850.5", "\"mean\": \"850.5\""),
              "p.json: metrics.latencies.nested_entry_latency_ns.all.mean: has the wrong type");
    EXPECT_EQ(error_of("\"count\": 600", "\"count\": -600"),
              "p.json: metrics.latencies.nested_entry_latency_ns.by_reason.0x980 HDEC.count: "
              "expected a non-negative integer");
    json& (*entry)(json&) = [](json& d) -> json& {
        return d["metrics"]["latencies"]["nested_entry_latency_ns"];
    };
    EXPECT_EQ(
        error_in([&](json& d) { entry(d)["by_vcpu"].insert(entry(d)["by_vcpu"].begin(), 3); }),
        "p.json: metrics.latencies.nested_entry_latency_ns.by_vcpu[0]: has the wrong type");
    EXPECT_EQ(error_in([&](json& d) { entry(d)["breakdown"][0].erase("step"); }),
              "p.json: metrics.latencies.nested_entry_latency_ns.breakdown[0].step: missing");
    EXPECT_EQ(error_in([&](json& d) { entry(d)["histogram"][1] = json::array({880}); }),
              "p.json: metrics.latencies.nested_entry_latency_ns.histogram[1]: expected [bin "
              "centre ns, count]");
    EXPECT_EQ(error_in([&](json& d) { entry(d)["histogram"][1][1] = 3.5; }),
              "p.json: metrics.latencies.nested_entry_latency_ns.histogram[1][1]: expected a "
              "non-negative integer");
    EXPECT_EQ(error_in([&](json& d) { entry(d)["histogram"][1][0] = 700; }),
              "p.json: metrics.latencies.nested_entry_latency_ns.histogram[1]: bin centres must "
              "ascend");
    EXPECT_EQ(error_in([&](json& d) { entry(d)["histogram"] = json::object(); }),
              "p.json: metrics.latencies.nested_entry_latency_ns.histogram: has the wrong type");
    EXPECT_THROW(parse_run_record("{\"platform\": 3}", "p.json"), std::runtime_error);
}

// Records written before per-vCPU counters existed still read; a gap in the numbering does not.
TEST(RunRecord, PerVcpuCountersAreOptionalAndNumberedInOrder) {
    run_record r = sample_record();
    r.result.metrics.vcpu_counters.clear();
    std::string j = run_record_json(r);
    const size_t at = j.find(",\n    \"vcpus\"");
    ASSERT_NE(at, std::string::npos) << j;
    const std::string old = j.substr(0, at) + j.substr(j.find('}', at) + 1);
    EXPECT_TRUE(parse_run_record(old, "old.json").result.metrics.vcpu_counters.empty()) << old;
    std::string gap = run_record_json(sample_record());
    gap.replace(gap.find("\"1\": {"), 6, "\"7\": {");
    try {
        parse_run_record(gap, "g.json");
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "g.json: metrics.vcpus.7: expected vCPU 1");
    }
}

TEST(RunRecord, PartialAndNonFiniteValuesSurvive) {
    run_record r = sample_record();
    r.result.partial = true;
    r.result.metrics.latencies["nested_entry_latency_ns"].all.p50 = std::nan("");
    const std::string j = run_record_json(r);
    EXPECT_NE(j.find("\"partial\": true"), std::string::npos);
    EXPECT_NE(j.find("\"p50\": null"), std::string::npos);
    const run_record back = parse_run_record(j, "p.json");
    EXPECT_TRUE(back.result.partial);
    EXPECT_EQ(back.result.metrics.latencies.at("nested_entry_latency_ns").all.p50, 0);
}

// run --from's check: the fields apart from wall_seconds and tool, then the bytes.
TEST(RunRecord, ReproductionIgnoresHostFieldsAndNamesTheFirstDifference) {
    const run_record r = sample_record();
    const std::string old_text = run_record_json(r);
    run_record again = r;
    again.result.wall_seconds = 9.5;
    again.tool_commit = "fffffff";
    EXPECT_EQ(record_text_difference(old_text, "a.json", run_record_doc(again)), "");
    again.result.metrics.counters["l1.blocks"] = 7;
    EXPECT_EQ(record_text_difference(old_text, "a.json", run_record_doc(again)),
              "metrics.counters.l1.blocks: 6 != 7");
    // The same values in another layout are not the same bytes.
    const std::string four = parse_json(old_text, "a.json").dump(4) + "\n";
    EXPECT_EQ(record_text_difference(four, "a.json", run_record_doc(r))
                  .rfind("the same fields, but the text differs from byte ", 0),
              0u);
}

TEST(RunRecord, SettingsKeepFirstPositionAndLastValue) {
    const settings_list s = parse_settings({"a=1", "b=x=y", "a=3"});
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0], (std::pair<std::string, std::string>("a", "3")));
    EXPECT_EQ(s[1], (std::pair<std::string, std::string>("b", "x=y")));
    EXPECT_THROW(parse_settings({"novalue"}), std::invalid_argument);
    EXPECT_THROW(parse_settings({"=1"}), std::invalid_argument);
}

TEST(RunRecord, WritabilityIsCheckedWithoutCreatingFiles) {
    EXPECT_EQ(check_writable_file("/nonexistent-dir-nestvp/x.json")
                  .find("directory '/nonexistent-dir-nestvp'"),
              0u);
    EXPECT_EQ(check_writable_file("/"), "is a directory");
    const std::string p = std::string(NESTVP_BINARY_DIR) + "/cli-writable-probe.json";
    std::remove(p.c_str());
    EXPECT_EQ(check_writable_file(p), "");
    FILE* f = std::fopen(p.c_str(), "r");
    EXPECT_EQ(f, nullptr);  // nothing left behind
    if (f) std::fclose(f);
    EXPECT_THROW(write_text_file("/nonexistent-dir-nestvp/x", "x"), std::runtime_error);
    EXPECT_THROW(read_text_file("/nonexistent-dir-nestvp/x"), std::runtime_error);
}

// A write cut short (here by the file-size limit) leaves no incomplete plain file; through a
// symbolic link, the link and its target stay and the message says the file is incomplete.
TEST(RunRecord, FailedWriteRemovesOnlyAPlainFile) {
    const std::string dir = std::string(NESTVP_BINARY_DIR) + "/cli-failed-write";
    std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
    const std::string plain = dir + "/plain.json", target = dir + "/target.json",
                      link = dir + "/link.json";
    write_text_file(target, "{}");
    ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit old{};
    ::getrlimit(RLIMIT_FSIZE, &old);
    rlimit small = old;
    small.rlim_cur = 4096;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    const std::string big(100000, 'x');
    std::string plain_err, link_err;
    try {
        write_text_file(plain, big);
    } catch (const std::runtime_error& e) {
        plain_err = e.what();
    }
    try {
        write_text_file(link, big);
    } catch (const std::runtime_error& e) {
        link_err = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &old);
    EXPECT_NE(plain_err.find("write failed: "), std::string::npos) << plain_err;
    EXPECT_NE(plain_err.find("(the incomplete file was removed)"), std::string::npos);
    struct stat st;
    EXPECT_NE(::lstat(plain.c_str(), &st), 0);
    EXPECT_NE(link_err.find("(the file is incomplete)"), std::string::npos) << link_err;
    EXPECT_EQ(::lstat(link.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode));
}

}  // namespace
}  // namespace nestvp
