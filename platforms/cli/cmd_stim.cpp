// `nestvp stim FILE [--impl tlm|rtl|lockstep] [--trace FILE.vcd]`: runs a directed stimulus on
// one hardware thread and prints one JSON object per line (docs/stim-format.md).
// Exit: 0 success; 2 bad file or flags (file:line:column on stderr); 1 run failure.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "models/timer_unit_factory.h"
#include "platforms/cli/command.h"
#include "platforms/config/stim_file.h"
#include "platforms/runner/stim_runner.h"

namespace {

void usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: nestvp stim FILE [--impl tlm|rtl|lockstep] [--trace FILE.vcd]\n\n"
                 "Runs a directed stimulus (YAML, see docs/stim-format.md) on one hardware\n"
                 "thread and prints one JSON object per line: mfspr results and interrupts.\n\n"
                 "  --impl NAME    DEC/HDEC unit implementation (default tlm; compiled in:");
    for (const auto& i : nestvp::timer_impls()) std::fprintf(out, " %s", i.c_str());
    std::fprintf(out,
                 ")\n"
                 "  --trace FILE   write a VCD of the timer unit (rtl and lockstep)\n"
                 "  --help         this text\n\n"
                 "exit status: 0 success, 2 bad file or options, 1 run failure\n");
}

int run(int argc, char** argv) {
    std::string file, impl = "tlm", trace;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            usage(stdout);
            return nestvp::exit_ok;
        }
        if (a == "--impl" || a == "--trace") {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "nestvp stim: %s needs a value\n", a.c_str());
                return nestvp::exit_usage;
            }
            (a == "--impl" ? impl : trace) = argv[++i];
        } else if (a.rfind("--impl=", 0) == 0) {
            impl = a.substr(7);
        } else if (a.rfind("--trace=", 0) == 0) {
            trace = a.substr(8);
        } else if (a.size() > 1 && a[0] == '-') {
            std::fprintf(stderr, "nestvp stim: unknown option '%s'\n", a.c_str());
            usage(stderr);
            return nestvp::exit_usage;
        } else if (file.empty()) {
            file = a;
        } else {
            std::fprintf(stderr, "nestvp stim: more than one FILE ('%s', '%s')\n", file.c_str(),
                         a.c_str());
            return nestvp::exit_usage;
        }
    }
    if (file.empty()) {
        std::fprintf(stderr, "nestvp stim: missing FILE\n");
        usage(stderr);
        return nestvp::exit_usage;
    }
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
        std::fprintf(stderr, "%s\n", e.what());
        return nestvp::exit_usage;
    }
    std::vector<std::string> lines;
    try {
        lines = nestvp::run_stim(f, {impl, trace});
    } catch (const nestvp::stim_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return nestvp::exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp stim: run failed: %s\n", e.what());
        return nestvp::exit_failure;
    }
    // Output only after a successful run: a failure leaves no partial JSON.
    for (const auto& l : lines) std::fprintf(stdout, "%s\n", l.c_str());
    if (std::fflush(stdout) != 0) {
        std::fprintf(stderr, "nestvp stim: error writing the output\n");
        return nestvp::exit_failure;
    }
    return nestvp::exit_ok;
}

}  // namespace

NESTVP_REGISTER_COMMAND(stim, "stim", "run a directed DEC/HDEC stimulus file on one thread", run);
