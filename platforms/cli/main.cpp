// nestvp: the command-line front end. Each command lives in its own cmd_*.cpp and registers
// itself; this file only dispatches.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <systemc>

#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/command.h"
#include "platforms/config/param_schema.h"

namespace {

// SystemC prints its banner when its kernel first starts unless this is set; it must be set
// before any SystemC call, so it is set during static initialisation (child runs inherit it).
const bool k_no_banner = ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1) == 0;

void print_usage(std::FILE* out) {
    std::fprintf(out, "usage: nestvp <command> [options]\n\ncommands:\n");
    for (const auto& c : nestvp::commands())
        std::fprintf(out, "  %-10s %s\n", c.name.c_str(), c.summary.c_str());
    std::fprintf(out,
                 "\n'nestvp help <command>' or 'nestvp <command> --help' describes a command; "
                 "'nestvp --version' prints the version.\n");
}

const nestvp::command* find_command(const std::string& name) {
    for (const auto& c : nestvp::commands())
        if (c.name == name) return &c;
    return nullptr;
}

// "nestvp: unknown command 'rn'; did you mean 'run'?"
int unknown_command(const std::string& prefix, const std::string& name) {
    std::vector<std::string> names;
    for (const auto& c : nestvp::commands()) names.push_back(c.name);
    const std::string near = nestvp::nearest_param(name, names);
    std::fprintf(stderr, "%sunknown command '%s'%s%s%s (see 'nestvp --help')\n", prefix.c_str(),
                 name.c_str(), near.empty() ? "" : "; did you mean '", near.c_str(),
                 near.empty() ? "" : "'?");
    return nestvp::exit_usage;
}

}  // namespace

int sc_main(int argc, char** argv) {
    (void)k_no_banner;
    if (argc < 2) {
        print_usage(stderr);
        return nestvp::exit_usage;
    }
    const std::string cmd = argv[1];
    if (cmd == "--version" || cmd == "version") {
        std::printf("nestvp %s\n", NESTVP_VERSION);
        return nestvp::flush_stdout("version") ? nestvp::exit_ok : nestvp::exit_failure;
    }
    if (cmd == "--help" || cmd == "-h" || (cmd == "help" && argc == 2)) {
        print_usage(stdout);
        return nestvp::flush_stdout("help") ? nestvp::exit_ok : nestvp::exit_failure;
    }
    if (cmd == "help") {  // `nestvp help run` is `nestvp run --help`
        if (argc > 3) {
            std::fprintf(stderr, "nestvp help: expected one command, got %d\n", argc - 2);
            return nestvp::exit_usage;
        }
        const nestvp::command* c = find_command(argv[2]);
        if (!c) return unknown_command("nestvp help: ", argv[2]);
        char help_flag[] = "--help";
        char* sub[] = {argv[2], help_flag, nullptr};
        return c->run(2, sub);
    }
    if (const nestvp::command* c = find_command(cmd)) return c->run(argc - 1, argv + 1);
    return unknown_command("nestvp: ", cmd);
}
