// nestvp: the command-line front end. Each command lives in its own cmd_*.cpp and registers
// itself; this file only dispatches.
#include <cstdio>
#include <cstring>
#include <string>

#include <systemc>

#include "platforms/cli/command.h"

namespace {

void print_usage(std::FILE* out) {
    std::fprintf(out, "usage: nestvp <command> [options]\n\ncommands:\n");
    for (const auto& c : nestvp::commands())
        std::fprintf(out, "  %-10s %s\n", c.name.c_str(), c.summary.c_str());
    std::fprintf(out,
                 "\n'nestvp <command> --help' describes a command; 'nestvp --version' prints the "
                 "version.\n");
}

}  // namespace

int sc_main(int argc, char** argv) {
    if (argc < 2) {
        print_usage(stderr);
        return nestvp::exit_usage;
    }
    const std::string cmd = argv[1];
    if (cmd == "--version" || cmd == "version") {
        std::printf("nestvp %s\n", NESTVP_VERSION);
        return nestvp::exit_ok;
    }
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        print_usage(stdout);
        return nestvp::exit_ok;
    }
    for (const auto& c : nestvp::commands())
        if (c.name == cmd) return c.run(argc - 1, argv + 1);
    std::fprintf(stderr, "nestvp: unknown command '%s'\n", cmd.c_str());
    print_usage(stderr);
    return nestvp::exit_usage;
}
