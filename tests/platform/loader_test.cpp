// Positive tests of the platform loader: defaults, include order, --set precedence, the
// dump_config round trip, the schema's field wiring, and every shipped platform file.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "platforms/config/param_schema.h"
#include "platforms/config/platform_loader.h"

namespace nestvp {
namespace {

namespace fs = std::filesystem;

const std::string good_dir = NESTVP_SOURCE_DIR "/tests/platform/good/";
const std::string platforms_dir = NESTVP_SOURCE_DIR "/platforms/";
const std::string bench_dir = NESTVP_SOURCE_DIR "/bench/";

// dump_config without its first (comment) line, which names the source file.
std::string body(const std::string& dump) {
    return dump.substr(dump.find('\n') + 1);
}

std::string write_temp(const std::string& name, const std::string& text) {
    const fs::path p = fs::temp_directory_path() / ("nestvp_platform_test_" + name);
    std::ofstream(p) << text;
    return p.string();
}

std::vector<std::string> shipped_platforms() {
    std::vector<std::string> files;
    for (const char* dir : {"", "cores/"})
        for (const auto& e : fs::directory_iterator(platforms_dir + dir))
            if (e.path().extension() == ".yaml") files.push_back(e.path().string());
    files.push_back(bench_dir + "reference-as-2677f31.yaml");  // bench/before_after.sh's
    return files;
}

TEST(PlatformLoader, DefaultsFillEveryKey) {
    const platform_config c = load_platform(good_dir + "minimal.yaml");
    platform_config d = default_platform();
    d.name = "minimal";
    EXPECT_EQ(body(dump_config(c)), body(dump_config(d)));
    EXPECT_EQ(c.workload.arithoh_iteration.cycles, 9u);
    EXPECT_EQ(c.source_file, good_dir + "minimal.yaml");
}

TEST(PlatformLoader, IncludeOverrideOrder) {
    const platform_config c = load_platform(good_dir + "top.yaml");
    EXPECT_EQ(c.l2.vcpus, 8u);  // only base.yaml sets it
    EXPECT_EQ(c.l2.hz, 300u);   // second.yaml (later include) overrides base.yaml
    EXPECT_EQ(c.l1.hz, 1000u);  // the file's own key overrides base.yaml
    EXPECT_EQ(c.l0.costs.partition_switch.cycles, 7000u);
    EXPECT_EQ(c.l0.costs.partition_switch.source, "test: second.yaml");
    EXPECT_EQ(c.l0.costs.exit_interrupt.cycles, l0_costs{}.exit_interrupt.cycles);
}

TEST(PlatformLoader, IncludePathsAreRelativeToTheIncludingFile) {
    const platform_config c = load_platform(good_dir + "nested.yaml");
    EXPECT_EQ(c.l2.vcpus, 6u);  // sub/child.yaml over base.yaml
    EXPECT_EQ(c.l2.hz, 1000u);  // nested.yaml over both
    EXPECT_EQ(c.l1.hz, 250u);   // base.yaml, two levels down
}

TEST(PlatformLoader, NameIsNotInherited) {
    EXPECT_EQ(load_platform(good_dir + "top.yaml").name, "top");  // base.yaml says "base"
    EXPECT_EQ(load_platform(good_dir + "sub/child.yaml").name, "child");
    EXPECT_EQ(load_platform(good_dir + "top.yaml", {"name=mine"}).name, "mine");
}

TEST(PlatformLoader, SetOverridesTheFile) {
    const platform_config c = load_platform(
        platforms_dir + "reference.yaml",
        {"l2.vcpus=8", "l1.dec_policy=no-cancel", "l0.api=v1", "l0.run_output=powervm-dec-expiry",
         "l2.hz=250", "workload.arithoh_copies=2", "run.duration_s=1.5", "run.seed=42"});
    EXPECT_EQ(c.l2.vcpus, 8u);
    EXPECT_EQ(c.l1.dec_policy, "no-cancel");
    EXPECT_EQ(c.l0.api, "v1");
    EXPECT_EQ(c.l0.run_output, "powervm-dec-expiry");
    EXPECT_EQ(c.l2.hz, 250u);
    EXPECT_EQ(c.workload.arithoh_copies, 2u);
    EXPECT_DOUBLE_EQ(c.run.duration_s, 1.5);
    EXPECT_EQ(c.run.seed, 42u);
}

TEST(PlatformLoader, LaterSetWins) {
    const platform_config c = load_platform(good_dir + "top.yaml", {"l2.hz=400", "l2.hz=500"});
    EXPECT_EQ(c.l2.hz, 500u);
}

TEST(PlatformLoader, SetCostCyclesAndSource) {
    platform_config c =
        load_platform(platforms_dir + "reference.yaml", {"l0.costs.partition_switch=8000"});
    EXPECT_EQ(c.l0.costs.partition_switch.cycles, 8000u);
    EXPECT_EQ(c.l0.costs.partition_switch.source, "--set on the command line");
    c = load_platform(platforms_dir + "reference.yaml",
                      {"l1.costs.wake.cycles=5000", "l1.costs.wake.source=assumption: test"});
    EXPECT_EQ(c.l1.costs.wake.cycles, 5000u);
    EXPECT_EQ(c.l1.costs.wake.source, "assumption: test");
}

// A cost is a non-negative real, in a file and with --set, and stays so through a dump.
TEST(PlatformLoader, FractionalCost) {
    platform_config c = load_platform(good_dir + "fractional_cost.yaml");
    EXPECT_EQ(c.workload.arithoh_iteration.cycles, 8.8);
    EXPECT_EQ(c.l0.costs.reg_move.cycles, 2.5);
    const platform_config again = load_platform(write_temp("fractional.yaml", dump_config(c)));
    EXPECT_EQ(again.workload.arithoh_iteration.cycles, 8.8);
    EXPECT_EQ(again.l0.costs.reg_move.cycles, 2.5);
    EXPECT_EQ(again.l0.costs.reg_move.range.hi, 40u);  // a range holds a fractional figure
    c = load_platform(good_dir + "fractional_cost.yaml",
                      {"l0.costs.partition_switch=1500.25", "l1.costs.wake.cycles=0.5"});
    EXPECT_EQ(c.l0.costs.partition_switch.cycles, 1500.25);
    EXPECT_EQ(c.l1.costs.wake.cycles, 0.5);
}

// `measured`: a value measured in the system the platform models, its method named
// (docs/platform-file.md, "Kinds"); the real stack's platform has no calibrated value.
TEST(PlatformLoader, MeasuredValuesAndAnUncalibratedQemuStack) {
    const std::string f = write_temp("measured.yaml", R"(l0:
  costs:
    get_state: {cycles: 1234.5, source: "measured: hcall_entry to hcall_exit in L1"}
l1:
  hz: {value: 250, kind: measured, source: "measured: ticks over 10 s of /proc/interrupts"}
)");
    const platform_config c = load_platform(f);
    EXPECT_EQ(provenance_of(c, *find_param("l0.costs.get_state")).kind, "measured");
    EXPECT_EQ(provenance_of(c, *find_param("l1.hz")).kind, "measured");
    EXPECT_EQ(c.l1.hz, 250u);
    const platform_config q = load_platform(platforms_dir + "qemu-l0.yaml");
    for (const param_def& d : param_schema()) {
        SCOPED_TRACE(d.path);
        EXPECT_NE(provenance_of(q, d).kind, "calibrated");
    }
    EXPECT_EQ(q.l0.run_output, "qemu");
    EXPECT_FALSE(q.machine.timer.large_dec);
}

TEST(PlatformLoader, SetListAndStringValues) {
    const platform_config c =
        load_platform(good_dir + "minimal.yaml",
                      {"machine.core.threads=2", "machine.core.smt_speed=[1, 0.7]",
                       "run.outputs.json=out dir/r: 1.json", "machine.timer.large_dec=false"});
    EXPECT_EQ(c.machine.core.threads, 2u);
    EXPECT_EQ(c.machine.core.smt_speed, (std::vector<double>{1.0, 0.7}));
    EXPECT_EQ(c.run.json_path, "out dir/r: 1.json");
    EXPECT_FALSE(c.machine.timer.large_dec);
}

TEST(PlatformLoader, ZeroArithohCopiesIsAllIdle) {
    const platform_config c = load_platform(good_dir + "no_workload.yaml");
    EXPECT_EQ(c.l2.vcpus, 1u);
    EXPECT_EQ(c.workload.arithoh_copies, 0u);
    EXPECT_EQ(c.name, "no_workload");
}

TEST(PlatformLoader, FrequenciesAcceptScientificNotation) {
    const platform_config c = load_platform(good_dir + "scientific.yaml");
    EXPECT_EQ(c.machine.core.tb_freq_hz, 512000000u);
    EXPECT_EQ(c.machine.core.clock_hz, 3500000000u);
}

TEST(PlatformLoader, DumpRoundTripsEveryShippedPlatform) {
    for (const auto& f : shipped_platforms()) {
        SCOPED_TRACE(f);
        const platform_config a = load_platform(f);
        const std::string dump = dump_config(a);
        const platform_config b = load_platform(write_temp("roundtrip.yaml", dump));
        EXPECT_EQ(body(dump_config(b)), body(dump));
        EXPECT_EQ(b.name, a.name);
        EXPECT_EQ(b.machine.core.smt_speed, a.machine.core.smt_speed);
        EXPECT_EQ(b.machine.core.smt_source, a.machine.core.smt_source);
    }
}

TEST(PlatformLoader, DumpRoundTripsAwkwardValues) {
    const platform_config a =
        load_platform(good_dir + "minimal.yaml",
                      {"l2.housekeeping_hz=0.3333333333333333", "run.duration_s=1e-3",
                       "run.seed=18446744073709551615", "name=a \"quoted\" name: with\\backslash",
                       "run.outputs.csv=yes", "run.outputs.plot=123",
                       "machine.core.smt_source=multi\nline", "run.trace_window.end_s=2.5"});
    const std::string dump = dump_config(a);
    const platform_config b = load_platform(write_temp("awkward.yaml", dump));
    EXPECT_EQ(body(dump_config(b)), body(dump));
    EXPECT_EQ(b.l2.housekeeping_hz, a.l2.housekeeping_hz);
    EXPECT_EQ(b.run.duration_s, 1e-3);
    EXPECT_EQ(b.run.seed, 18446744073709551615ull);
    EXPECT_EQ(b.name, "a \"quoted\" name: with\\backslash");
    EXPECT_EQ(b.run.csv_path, "yes");
    EXPECT_EQ(b.run.plot_dir, "123");
    EXPECT_EQ(b.machine.core.smt_source, "multi\nline");
}

TEST(PlatformLoader, EveryShippedPlatformLoads) {
    const auto files = shipped_platforms();
    EXPECT_GE(files.size(), 5u);  // reference, nestedv1, idle-heavy and the two cores at least
    for (const auto& f : files) {
        SCOPED_TRACE(f);
        EXPECT_NO_THROW(load_platform(f));
    }
}

TEST(PlatformLoader, ReferencePlatformIsTheReferenceSetup) {
    const platform_config c = load_platform(platforms_dir + "reference.yaml");
    EXPECT_EQ(c.name, "reference");
    EXPECT_EQ(c.l0.api, "v2");
    EXPECT_EQ(c.l0.run_output, "powervm-deduced");  // get-state-deduction.md §3
    EXPECT_EQ(c.l2.irqchip, "emulated-xive");
    EXPECT_EQ(c.l1.dec_policy, "cancel");
    EXPECT_EQ(c.workload.arithoh_copies, 1u);
    EXPECT_DOUBLE_EQ(c.run.duration_s, 10.0);
    EXPECT_EQ(c.machine.core.threads, 8u);  // from cores/power10-smt8.yaml
    // Every declared cost is present with a source; the reference file lists them all.
    std::ifstream in(platforms_dir + "reference.yaml");
    std::stringstream text;
    text << in.rdbuf();
    for (const auto& d : param_schema()) {
        if (d.type != param_type::cost) continue;
        SCOPED_TRACE(d.path);
        const std::string name = d.path.substr(d.path.rfind('.') + 1);
        EXPECT_NE(text.str().find("    " + name + ": {cycles: "), std::string::npos);
    }
}

// Every model value the reference file (and its core file) sets states its kind; three are
// calibrated, each naming the figure of the cancel column it was set from.
TEST(PlatformLoader, EveryReferenceValueStatesItsKind) {
    const platform_config c = load_platform(platforms_dir + "reference.yaml");
    unsigned calibrated = 0;
    for (const auto& d : param_schema()) {
        if (d.type == param_type::string) continue;  // names and paths, not model values
        const value_provenance p = provenance_of(c, d);
        SCOPED_TRACE(d.path + " " + p.kind);
        EXPECT_NE(p.kind, "unspecified");
        if (p.kind == "calibrated") {
            ++calibrated;
            EXPECT_EQ(p.calibrated_on.policy, "cancel");  // the kernel as fixed
        }
        if (p.kind == "assumed" && d.type != param_type::boolean && d.type != param_type::choice &&
            d.type != param_type::real_list) {
            EXPECT_EQ(p.range.size(), 2u);
        }
        if (is_stated_kind(p.kind)) {
            EXPECT_FALSE(p.source.empty());
        }
    }
    EXPECT_EQ(calibrated, 3u);
    EXPECT_EQ(provenance_of(c, *find_param("l2.housekeeping_hz")).calibrated_on.metric,
              "kvm_guest_exit");
    EXPECT_EQ(
        provenance_of(c, *find_param("workload.costs.arithoh_iteration")).calibrated_on.metric,
        "arithoh_count");
}

// Three calibrated values, one per figure of the cancel column: each keeps its figure through
// a dump, and `nestvp params --platform` shows it.
TEST(PlatformLoader, ThreeCalibratedValuesNameTheirFigures) {
    const platform_config c = load_platform(good_dir + "three_calibrated.yaml");
    const std::pair<const char*, const char*> want[] = {
        {"l2.housekeeping_hz", "kvm_guest_exit"},
        {"l2.devices.irq_hz", "gsb_recv"},
        {"workload.costs.arithoh_iteration", "arithoh_count"}};
    const platform_config again = load_platform(write_temp("calibrated.yaml", dump_config(c)));
    for (const auto& w : want) {
        SCOPED_TRACE(w.first);
        for (const platform_config* p : {&c, &again}) {
            const value_provenance v = provenance_of(*p, *find_param(w.first));
            EXPECT_EQ(v.kind, "calibrated");
            EXPECT_EQ(v.calibrated_on.metric, w.second);
            EXPECT_EQ(v.calibrated_on.policy, "cancel");
        }
    }
    EXPECT_EQ(body(dump_config(again)), body(dump_config(c)));
    EXPECT_EQ(c.workload.arithoh_iteration.cycles, 8.8);
    std::ostringstream table;
    print_params_table(table, "", &c);
    EXPECT_NE(table.str().find("[calibrated on gsb_recv, cancel: gsb_recv, cancel: 28,110"),
              std::string::npos)
        << table.str();
    EXPECT_NE(table.str().find("[calibrated on arithoh_count, cancel]"), std::string::npos);
    std::ostringstream markdown;
    print_params_markdown(markdown, "workload.", &c);
    EXPECT_NE(markdown.str().find("| calibrated on arithoh_count, cancel |"), std::string::npos)
        << markdown.str();
}

// `--set KEY.source=TEXT` changes only the source: a cost it leaves calibrated keeps its figure;
// a cost set by hand is no longer calibrated on anything.
TEST(PlatformLoader, SetSourceKeepsACalibratedCostsFigure) {
    const param_def& arithoh = *find_param("workload.costs.arithoh_iteration");
    platform_config c =
        load_platform(platforms_dir + "reference.yaml",
                      {"workload.costs.arithoh_iteration.source=calibrated: reworded"});
    value_provenance p = provenance_of(c, arithoh);
    EXPECT_EQ(p.kind, "calibrated");
    EXPECT_EQ(p.source, "calibrated: reworded");
    EXPECT_EQ(p.calibrated_on.metric, "arithoh_count");
    c = load_platform(platforms_dir + "reference.yaml", {"workload.costs.arithoh_iteration=8.8"});
    p = provenance_of(c, arithoh);
    EXPECT_EQ(p.kind, "set");
    EXPECT_TRUE(p.calibrated_on.empty());
}

TEST(PlatformLoader, VariantsDifferFromTheReferenceOnlyWhereTheySay) {
    const platform_config ref = load_platform(platforms_dir + "reference.yaml");
    platform_config v1 = load_platform(platforms_dir + "nestedv1.yaml");
    EXPECT_EQ(v1.l0.api, "v1");
    v1.l0.api = ref.l0.api;
    v1.provenance["l0.api"] = ref.provenance.at("l0.api");
    v1.name = ref.name;
    EXPECT_EQ(body(dump_config(v1)), body(dump_config(ref)));
    platform_config idle = load_platform(platforms_dir + "idle-heavy.yaml");
    EXPECT_EQ(idle.l2.vcpus, 16u);
    idle.l2.vcpus = ref.l2.vcpus;
    idle.provenance["l2.vcpus"] = ref.provenance.at("l2.vcpus");
    idle.name = ref.name;
    EXPECT_EQ(body(dump_config(idle)), body(dump_config(ref)));
}

TEST(PlatformLoader, BenchOldReferenceDiffersOnlyWhereItSays) {
    // bench/reference-as-2677f31.yaml: today's reference with 2677f31's shape, nothing else.
    const platform_config ref = load_platform(platforms_dir + "reference.yaml");
    platform_config old = load_platform(bench_dir + "reference-as-2677f31.yaml");
    EXPECT_EQ(old.l2.vcpus, 3u);
    EXPECT_FALSE(old.l2.snooze);
    EXPECT_EQ(old.l2.housekeeping_hz, 10000.0);
    EXPECT_EQ(old.l0.costs.partition_switch.cycles, 38500u);
    old.l2.vcpus = ref.l2.vcpus;
    old.l2.snooze = ref.l2.snooze;
    old.l2.housekeeping_hz = ref.l2.housekeeping_hz;
    old.l0.costs.partition_switch = ref.l0.costs.partition_switch;
    for (const char* key : {"l2.vcpus", "l2.snooze", "l2.housekeeping_hz"})
        old.provenance[key] = ref.provenance.at(key);
    old.name = ref.name;
    EXPECT_EQ(body(dump_config(old)), body(dump_config(ref)));
}

TEST(PlatformLoader, CoreFilesCarrySmtTablesWithSources) {
    const platform_config p9 = load_platform(platforms_dir + "cores/power9-smt4.yaml");
    const platform_config p10 = load_platform(platforms_dir + "cores/power10-smt8.yaml");
    EXPECT_EQ(p9.machine.core.threads, 4u);
    EXPECT_EQ(p10.machine.core.threads, 8u);
    for (const auto* c : {&p9, &p10}) {
        EXPECT_DOUBLE_EQ(c->machine.core.smt_speed.front(), 1.0);
        // The table's source: in smt_source, or stated with the table (kind and source).
        const value_provenance p = provenance_of(*c, *find_param("machine.core.smt_speed"));
        const std::string src = is_stated_kind(p.kind) ? p.source : c->machine.core.smt_source;
        EXPECT_GT(src.size(), 40u);
        EXPECT_NE(src, default_platform().machine.core.smt_source);
    }
}

// Each key writes its own field and no other: set one key to a non-default value and check
// that every other key still reads its default.
TEST(PlatformSchema, EveryKeySetsOnlyItsOwnField) {
    const platform_config def = default_platform();
    for (const auto& d : param_schema()) {
        SCOPED_TRACE(d.path);
        platform_config c = default_platform();
        param_value v = d.get(c);
        switch (d.type) {
            case param_type::uint:
            case param_type::hz:
                v.u = v.u == 2 ? 3 : 2;
                break;
            case param_type::cost:
                v.d = v.d == 2.5 ? 3.5 : 2.5;
                v.s += "x";
                break;
            case param_type::real:
                v.d = v.d == 0.5 ? 0.25 : 0.5;
                break;
            case param_type::boolean:
                v.b = !v.b;
                break;
            case param_type::string:
                v.s += "x";
                break;
            case param_type::choice:
                v.s = d.choices.back() == v.s ? d.choices.front() : d.choices.back();
                break;
            case param_type::real_list:
                v.list.push_back(0.1);
                break;
        }
        d.set(c, v);
        EXPECT_EQ(format_value(d, d.get(c)), format_value(d, v));
        EXPECT_NE(format_value(d, d.get(c)), format_value(d, d.get(def)));
        for (const auto& o : param_schema()) {
            if (&o == &d) continue;
            EXPECT_EQ(format_value(o, o.get(c)), format_value(o, o.get(def))) << o.path;
        }
    }
}

TEST(PlatformSchema, RunCommandKeysExist) {
    // These keys must work with --set.
    for (const char* k : {"l1.dec_policy", "l0.api", "l0.run_output", "l2.vcpus", "l2.hz",
                          "workload.arithoh_copies", "run.duration_s", "run.seed"})
        EXPECT_NE(find_param(k), nullptr) << k;
    EXPECT_EQ(find_param("l2"), nullptr);
    EXPECT_EQ(find_param("l0.costs.partition_switch")->type, param_type::cost);
}

TEST(PlatformSchema, ParamsListEveryKeyWithTypeDefaultAndUnit) {
    std::ostringstream out;
    print_params(out);
    const std::string text = out.str();
    for (const auto& d : param_schema())
        EXPECT_NE(text.find("\n" + d.path + " "), std::string::npos) << d.path;
    EXPECT_NE(text.find("l2.vcpus"), std::string::npos);
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);
    EXPECT_NE(line.find("DEFAULT"), std::string::npos);
    while (std::getline(lines, line)) {
        if (line.rfind("run.duration_s ", 0) != 0) continue;
        EXPECT_NE(line.find("number"), std::string::npos) << line;
        EXPECT_NE(line.find(" 10 "), std::string::npos) << line;
        EXPECT_NE(line.find(" s "), std::string::npos) << line;
    }
}

TEST(PlatformSchema, NearestKeySuggestions) {
    std::vector<std::string> all;
    for (const auto& d : param_schema()) all.push_back(d.path);
    EXPECT_EQ(nearest_param("l2.vcpu", all), "l2.vcpus");
    EXPECT_EQ(nearest_param("l1.dec_polcy", all), "l1.dec_policy");
    EXPECT_EQ(nearest_param("vcpus", all), "l2.vcpus");
    EXPECT_EQ(nearest_param("zzzzzz", all), "");
}

}  // namespace
}  // namespace nestvp
