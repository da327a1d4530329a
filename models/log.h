#pragma once
// Logging through the SystemC report handler (IEEE 1666 §8.3): one message type per module
// ("nestvp/l1", ...), a level per module set from the command line (`--log l1=debug`). The level
// test comes first and the message is only formatted when it passes, so disabled logging costs
// one array load on the hot path. Off by default: models and software say nothing unless asked.
#include <array>
#include <cstdint>
#include <sstream>
#include <string>

namespace nestvp::log {

enum class level : uint8_t { off, info, debug, trace };  // trace: every step, e.g. GET_STATEs
enum class module : uint8_t { timer, thread, l0, l1, l2, count_ };
constexpr unsigned module_count = static_cast<unsigned>(module::count_);

namespace detail {
inline std::array<level, module_count> g_levels{};  // all off
}

inline bool enabled(module m, level l) {
    return detail::g_levels[static_cast<unsigned>(m)] >= l;
}
void set_level(module m, level l);
// Applies one `MODULE=LEVEL` setting (module: timer, thread, l0, l1, l2 or all; level: off,
// info, debug, trace). False with `error` set when the text is not one.
// Modules: timer (DEC/HDEC writes and edges), thread (guest entry and trap, interrupts taken),
// l0 (hcalls and GSB elements), l1 (one line per exit with its DEC policy decision at debug;
// each GET_STATE at trace), l2 (idle choices).
bool apply(const std::string& setting, std::string& error);
// The names apply() accepts, for help texts.
std::string modules_help();
const char* msg_type(module m);  // "nestvp/l1"
// Put before every line: a child of `compare` or `sweep` names its side or point this way.
void set_prefix(const std::string& prefix);
// Reports `text` as SC_REPORT_INFO_VERB of the module's message type (debug: SC_DEBUG), after
// the prefix and the simulated time of the calling thread (ms, ns resolution).
void emit(module m, level l, const std::string& text);

}  // namespace nestvp::log

// NESTVP_LOG(log::module::l1, log::level::debug, "exit " << reason): formats only when enabled.
#define NESTVP_LOG(mod, lvl, expr)                               \
    do {                                                         \
        if (::nestvp::log::enabled(mod, lvl)) {                  \
            std::ostringstream nestvp_log_os_;                   \
            nestvp_log_os_ << expr;                              \
            ::nestvp::log::emit(mod, lvl, nestvp_log_os_.str()); \
        }                                                        \
    } while (0)
