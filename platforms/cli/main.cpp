// nestvp: the command-line front end. Each command lives in its own cmd_*.cpp and registers
// itself; this file only dispatches.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <systemc>

#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/command.h"
#include "platforms/config/param_schema.h"
#include "platforms/records/build_stamp.h"

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
    // The top level has two flags; everything from the command on is the command's.
    CLI::App app("", "nestvp");
    app.set_help_flag();
    bool version = false, help = false;
    app.add_flag("--version", version);
    app.add_flag("-h,--help", help);
    app.prefix_command();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "nestvp: %s (see 'nestvp --help')\n", e.what());
        return nestvp::exit_usage;
    }
    std::vector<std::string> rest = app.remaining();
    const std::string cmd = rest.empty() ? "" : rest.front();
    if (version || cmd == "version") {
        std::printf("nestvp %s (commit %s, %s)\n", nestvp::build_version().c_str(),
                    nestvp::build_commit().c_str(), nestvp::build_describe().c_str());
        return nestvp::flush_stdout("version") ? nestvp::exit_ok : nestvp::exit_failure;
    }
    if (help || (cmd == "help" && rest.size() == 1)) {
        print_usage(stdout);
        return nestvp::flush_stdout("help") ? nestvp::exit_ok : nestvp::exit_failure;
    }
    if (cmd.empty()) {
        print_usage(stderr);
        return nestvp::exit_usage;
    }
    if (cmd == "help") {  // `nestvp help run` is `nestvp run --help`
        if (rest.size() > 2) {
            std::fprintf(stderr, "nestvp help: expected one command, got %zu\n", rest.size() - 1);
            return nestvp::exit_usage;
        }
        const nestvp::command* c = find_command(rest[1]);
        if (!c) return unknown_command("nestvp help: ", rest[1]);
        rest = {rest[1], "--help"};
    }
    const nestvp::command* c = find_command(rest.front());
    if (!c && cmd[0] == '-') {
        std::fprintf(stderr, "nestvp: unknown option '%s' (see 'nestvp --help')\n", cmd.c_str());
        return nestvp::exit_usage;
    }
    if (!c) return unknown_command("nestvp: ", cmd);
    std::vector<char*> sub;
    for (auto& r : rest) sub.push_back(r.data());
    sub.push_back(nullptr);
    return c->run(static_cast<int>(rest.size()), sub.data());
}
