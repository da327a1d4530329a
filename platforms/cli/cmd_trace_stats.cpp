// nestvp trace-stats FILE: the counts of a perf script, tracefs or real-stack counts file, in
// the seed's shape, and its JSON (docs/cmd-trace-stats.md).
#include <cstdio>

#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/cli_parse.h"
#include "platforms/cli/command.h"
#include "platforms/traces/trace_stats.h"

namespace nestvp {
namespace {

const char* const k_help =
    "usage: nestvp trace-stats FILE [--json OUT] [--bin S] [--strict] [--quiet]\n"
    "\n"
    "Reads a trace and prints the seed's counts (kvm_hv:kvm_guest_exit, probe:kvmppc_gsb_recv),\n"
    "the counts per event, exits per trap and per vCPU, the exit rate over time and, per vCPU,\n"
    "the kvm_guest_enter -> kvm_guest_exit and exit -> enter intervals. FILE is one of:\n"
    "  - `perf script` text (e.g. `nestvp run --perf-script`, or a real machine's);\n"
    "  - a tracefs `trace` file (/sys/kernel/tracing/trace);\n"
    "  - a real-stack counts JSON (bench/realstack/results), or a trace-stats JSON.\n"
    "Unknown events are counted and named; `#` headers and call-chain lines are skipped.\n"
    "\n"
    "options:\n"
    "  --json OUT   write the statistics as JSON (- for stdout, then no table)\n"
    "  --bin S      the exit-rate bin in seconds (default 0.1)\n"
    "  --strict     the first malformed line is fatal\n"
    "  --quiet      do not list malformed lines on stderr (the summary stays)\n"
    "  --help       this text\n"
    "\n"
    "A malformed line is named with its line number and skipped. Exit codes: 0 ok, 1 the file\n"
    "cannot be read, has no parsable event line, or (--strict) a malformed line, 2 bad\n"
    "command line.\n";

struct trace_stats_args {
    std::vector<std::string> files;
    std::string json_out, bin;
    bool strict = false, quiet = false;
};

int trace_stats_main(int argc, char** argv) {
    trace_stats_args a;
    trace_stats_options opts;
    cli_parser cli("trace-stats", k_help);
    cli.positionals(a.files);
    cli.value("--json", a.json_out);
    cli.value("--bin", a.bin);
    cli.flag("--strict", a.strict);
    cli.flag("-q,--quiet", a.quiet);
    try {
        if (!cli.parse({argv + 1, argv + argc})) return cli.help_exit();
        if (a.files.size() != 1)
            throw usage_error("nestvp trace-stats: expected one trace file, got " +
                              std::to_string(a.files.size()));
        if (!a.bin.empty()) opts.bin_s = parse_seconds("--bin", a.bin);
        if (opts.bin_s <= 0) throw usage_error("nestvp trace-stats: --bin: must be > 0");
    } catch (const usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return exit_usage;
    }
    if (!prepare_output_file("trace-stats", "--json", a.json_out)) return exit_usage;
    opts.strict = a.strict;
    trace_stats s;
    try {
        s = read_trace_stats(a.files[0], opts);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp trace-stats: %s\n", e.what());
        return exit_failure;
    }
    if (!a.quiet)
        for (const auto& m : s.malformed_lines)
            std::fprintf(stderr, "nestvp trace-stats: %s:%llu: malformed line skipped: %s\n",
                         a.files[0].c_str(), static_cast<unsigned long long>(m.line),
                         m.why.c_str());
    if (s.malformed)
        std::fprintf(stderr, "nestvp trace-stats: %s: %llu malformed line%s skipped of %llu\n",
                     a.files[0].c_str(), static_cast<unsigned long long>(s.malformed),
                     s.malformed == 1 ? "" : "s", static_cast<unsigned long long>(s.lines));
    int rc = exit_ok;
    if (a.json_out != "-") std::fputs(trace_stats_table(s).c_str(), stdout);
    if (!flush_stdout("trace-stats")) rc = exit_failure;
    if (!a.json_out.empty() &&
        !write_one("trace-stats", a.json_out, [&] { return json_text(trace_stats_json(s)); }))
        rc = exit_failure;
    return rc;
}

}  // namespace
}  // namespace nestvp

NESTVP_REGISTER_COMMAND(trace_stats, "trace-stats",
                        "count a perf script, tracefs or counts file: the seed's table and more",
                        nestvp::trace_stats_main);
