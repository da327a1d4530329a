// `nestvp stim FILE [--impl tlm|rtl|lockstep] [--trace FILE.vcd]`: runs a directed stimulus on
// one hardware thread and prints one JSON object per line (docs/stim-format.md).
// Exit: 0 success; 2 bad file or flags (file:line:column on stderr); 1 run failure.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "models/timer_unit_factory.h"
#include "models/vcd_writer.h"
#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/cli_parse.h"
#include "platforms/cli/command.h"
#include "platforms/cli/log_options.h"
#include "platforms/config/stim_file.h"
#include "platforms/runner/stim_runner.h"

namespace {

std::string help_text() {
    std::string h =
        "usage: nestvp stim FILE [--impl tlm|rtl|lockstep] [--trace FILE.vcd]\n\n"
        "Runs a directed stimulus (YAML, see docs/stim-format.md) on one hardware\n"
        "thread and prints one JSON object per line: mfspr results and interrupts.\n\n"
        "  --impl NAME    DEC/HDEC unit implementation (default tlm; compiled in:";
    for (const auto& i : nestvp::timer_impls()) h += " " + i;
    return h +
           ")\n"
           "  --trace FILE   write a VCD of the timer unit (rtl and "
           "lockstep)\n" NESTVP_LOG_OPTION_HELP
           "  --help         this text\n\n"
           "Exit codes: 0 ok, 1 run failure or output not written, 2 bad file or options.\n";
}

int run(int argc, char** argv) {
    std::vector<std::string> files;
    std::string impl, trace;
    nestvp::cli_parser cli("stim", help_text());
    cli.positionals(files);
    cli.value("--impl", impl);
    cli.value("--trace", trace);
    std::vector<std::string> logs;
    cli.list("--log", logs);
    try {
        if (!cli.parse({argv + 1, argv + argc})) return cli.help_exit();
        nestvp::apply_log_options("stim", logs);
        if (files.empty())
            throw nestvp::usage_error("nestvp stim: missing FILE (see 'nestvp stim --help')");
        if (files.size() > 1)
            throw nestvp::usage_error("nestvp stim: more than one FILE ('" + files[0] + "', '" +
                                      files[1] + "')");
    } catch (const nestvp::usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return nestvp::exit_usage;
    }
    if (impl.empty()) impl = "tlm";
    const std::string file = files[0];
    bool known = false;
    for (const auto& i : nestvp::timer_impls()) known |= i == impl;
    if (!known) {
        std::fprintf(stderr, "nestvp stim: unknown --impl '%s' (compiled in:", impl.c_str());
        for (const auto& i : nestvp::timer_impls()) std::fprintf(stderr, " %s", i.c_str());
        std::fprintf(stderr, ")\n");
        return nestvp::exit_usage;
    }
    if (!trace.empty() && impl == "tlm")
        std::fprintf(stderr,
                     "nestvp stim: note: the tlm timer unit writes no VCD; --trace is "
                     "used by rtl and lockstep\n");
    nestvp::stim_file f;
    try {
        f = nestvp::load_stim_file(file);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp stim: %s\n", e.what());
        return nestvp::exit_usage;
    }
    std::vector<std::string> lines;
    try {
        lines = nestvp::run_stim(f, {impl, trace});
    } catch (const nestvp::stim_error& e) {
        std::fprintf(stderr, "nestvp stim: %s\n", e.what());
        return nestvp::exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp stim: run failed: %s\n", e.what());
        return nestvp::exit_failure;
    }
    // Output only after a successful run: a failure leaves no partial JSON.
    for (const auto& l : lines) std::fprintf(stdout, "%s\n", l.c_str());
    int rc = nestvp::flush_stdout("stim") ? nestvp::exit_ok : nestvp::exit_failure;
    for (const auto& e : nestvp::vcd_writer::take_write_errors()) {  // the unit's --trace
        std::fprintf(stderr, "nestvp stim: %s\n", e.c_str());
        rc = nestvp::exit_failure;
    }
    return rc;
}

}  // namespace

NESTVP_REGISTER_COMMAND(stim, "stim", "run a directed DEC/HDEC stimulus file on one thread", run);
