// `nestvp params [PREFIX] [--markdown] [--platform FILE]`: every platform-file key with its type,
// default (or the platform's value), unit, range and description, from the same schema the
// loader uses (platforms/config/param_schema.h).
// Exit: 0 success; 1 output not written; 2 bad option or a PREFIX that matches no key.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "platforms/cli/cli_outputs.h"
#include "platforms/cli/cli_parse.h"
#include "platforms/cli/command.h"
#include "platforms/config/param_schema.h"
#include "platforms/config/platform_loader.h"

namespace {

const char* const k_help =
    "usage: nestvp params [PREFIX] [--markdown] [--platform FILE.yaml [--set KEY=VALUE ...]]\n\n"
    "Lists every key of a platform file (docs/platform-file.md): its dotted path,\n"
    "type, default, unit, allowed range or values, and description. Costs are\n"
    "listed with the source of their default. Any key can be given with\n"
    "`--set key=value` on run, compare and sweep; a cost takes its cycles\n"
    "(`--set l0.costs.partition_switch=8000`).\n\n"
    "  PREFIX       only keys that start with PREFIX (e.g. l2. or run)\n"
    "  --markdown   a Markdown table instead of aligned text\n"
    "  --platform FILE.yaml\n"
    "               show that platform's values (includes and --set applied) instead of\n"
    "               the defaults; costs with their source\n"
    "  --set KEY=VALUE\n"
    "               with --platform: override a key first (repeatable)\n"
    "  --help       this text\n\n"
    "Exit codes: 0 ok, 1 output could not be written, 2 bad option or a PREFIX that matches\n"
    "no key.\n";

int run(int argc, char** argv) {
    bool markdown = false;
    std::vector<std::string> prefixes, sets;
    std::string platform;
    nestvp::cli_parser cli("params", k_help);
    cli.positionals(prefixes);
    cli.flag("--markdown", markdown);
    cli.value("--platform", platform);
    cli.list("--set", sets);
    std::optional<nestvp::platform_config> values;
    try {
        if (!cli.parse({argv + 1, argv + argc})) return cli.help_exit();
        if (prefixes.size() > 1)
            throw nestvp::usage_error("nestvp params: more than one PREFIX ('" + prefixes[0] +
                                      "', '" + prefixes[1] + "')");
        if (!sets.empty() && platform.empty())
            throw nestvp::usage_error("nestvp params: --set needs --platform FILE.yaml");
        if (!platform.empty()) values = nestvp::load_platform(platform, sets);
    } catch (const nestvp::usage_error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return nestvp::exit_usage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nestvp params: %s\n", e.what());
        return nestvp::exit_usage;
    }
    const std::string prefix = prefixes.empty() ? "" : prefixes[0];
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
    const nestvp::platform_config* shown = values ? &*values : nullptr;
    if (markdown)
        nestvp::print_params_markdown(std::cout, prefix, shown);
    else
        nestvp::print_params_table(std::cout, prefix, shown);
    std::cout.flush();
    if (!std::cout) {
        std::fprintf(stderr, "nestvp params: cannot write standard output\n");
        return nestvp::exit_failure;
    }
    return nestvp::flush_stdout("params") ? nestvp::exit_ok : nestvp::exit_failure;
}

}  // namespace

NESTVP_REGISTER_COMMAND(params, "params", "list every platform-file key: type, default, unit", run);
