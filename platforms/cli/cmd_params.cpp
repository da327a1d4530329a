// `nestvp params [PREFIX] [--markdown]`: every platform-file key with its type, default, unit,
// range and description, from the same schema the loader uses (platforms/config/param_schema.h).
// Exit: 0 success; 2 bad option or a PREFIX that matches no key.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "platforms/cli/command.h"
#include "platforms/config/param_schema.h"

namespace {

void usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: nestvp params [PREFIX] [--markdown]\n\n"
                 "Lists every key of a platform file (docs/platform-file.md): its dotted path,\n"
                 "type, default, unit, allowed range or values, and description. Costs are\n"
                 "listed with the source of their default. Any key can be given with\n"
                 "`--set key=value` on run, compare and sweep; a cost takes its cycles\n"
                 "(`--set l0.costs.partition_switch=8000`).\n\n"
                 "  PREFIX       only keys that start with PREFIX (e.g. l2. or run)\n"
                 "  --markdown   a Markdown table instead of aligned text\n"
                 "  --help       this text\n\n"
                 "exit status: 0 success, 2 bad option or a PREFIX that matches no key\n");
}

int run(int argc, char** argv) {
    bool markdown = false;
    std::string prefix;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            usage(stdout);
            return nestvp::exit_ok;
        }
        if (a == "--markdown") {
            markdown = true;
        } else if (a.size() > 1 && a[0] == '-') {
            std::fprintf(stderr, "nestvp params: unknown option '%s'\n", a.c_str());
            usage(stderr);
            return nestvp::exit_usage;
        } else if (prefix.empty()) {
            prefix = a;
        } else {
            std::fprintf(stderr, "nestvp params: more than one PREFIX ('%s', '%s')\n",
                         prefix.c_str(), a.c_str());
            return nestvp::exit_usage;
        }
    }
    std::vector<std::string> all;
    bool any = false;
    for (const auto& d : nestvp::param_schema()) {
        all.push_back(d.path);
        any = any || d.path.compare(0, prefix.size(), prefix) == 0;
    }
    if (!any) {
        std::string near = nestvp::nearest_param(prefix, all);
        std::fprintf(stderr, "nestvp params: no key starts with '%s'%s%s%s\n", prefix.c_str(),
                     near.empty() ? "" : "; did you mean '", near.c_str(),
                     near.empty() ? "" : "'?");
        return nestvp::exit_usage;
    }
    if (markdown)
        nestvp::print_params_markdown(std::cout, prefix);
    else
        nestvp::print_params_table(std::cout, prefix);
    return nestvp::exit_ok;
}

}  // namespace

NESTVP_REGISTER_COMMAND(params, "params", "list every platform-file key: type, default, unit", run);
