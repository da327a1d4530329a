#include "models/log.h"

#include <cstdio>

#include <systemc>

#include "models/local_time.h"

namespace nestvp::log {

namespace {
const char* const module_names[] = {"timer", "thread", "l0", "l1", "l2"};
std::string g_prefix;
const char* const module_types[] = {"nestvp/timer", "nestvp/thread", "nestvp/l0", "nestvp/l1",
                                    "nestvp/l2"};
static_assert(sizeof(module_names) / sizeof(module_names[0]) == module_count, "names");
}  // namespace

void set_level(module m, level l) {
    detail::g_levels[static_cast<unsigned>(m)] = l;
    // SC_DEBUG messages print only when the handler's verbosity reaches them.
    if (l >= level::debug) sc_core::sc_report_handler::set_verbosity_level(sc_core::SC_DEBUG);
}

bool apply(const std::string& setting, std::string& error) {
    const auto eq = setting.find('=');
    if (eq == std::string::npos) {
        error = "expected MODULE=LEVEL, found '" + setting + "'";
        return false;
    }
    const std::string name = setting.substr(0, eq), value = setting.substr(eq + 1);
    level l;
    if (value == "off")
        l = level::off;
    else if (value == "info")
        l = level::info;
    else if (value == "debug")
        l = level::debug;
    else if (value == "trace")
        l = level::trace;
    else {
        error = "level '" + value + "': expected off, info, debug or trace";
        return false;
    }
    bool found = false;
    for (unsigned i = 0; i < module_count; ++i)
        if (name == "all" || name == module_names[i]) {
            set_level(static_cast<module>(i), l);
            found = true;
        }
    if (!found) {
        error = "module '" + name + "': expected " + modules_help();
        return false;
    }
    return true;
}

std::string modules_help() {
    std::string s;
    for (unsigned i = 0; i < module_count; ++i) s += std::string(module_names[i]) + ", ";
    return s + "or all";
}

const char* msg_type(module m) {
    return module_types[static_cast<unsigned>(m)];
}

void set_prefix(const std::string& prefix) {
    g_prefix = prefix;
}

void emit(module m, level l, const std::string& text) {
    char at[40];
    std::snprintf(at, sizeof(at), "%.6f ms ", local_time::now().to_seconds() * 1e3);
    const std::string line = g_prefix + at + text;
    SC_REPORT_INFO_VERB(msg_type(m), line.c_str(),
                        l >= level::debug ? sc_core::SC_DEBUG : sc_core::SC_MEDIUM);
}

}  // namespace nestvp::log
