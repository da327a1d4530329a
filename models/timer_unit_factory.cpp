// make_timer_unit: "tlm" -> native_timer_unit. Further implementations (rtl, lockstep) add a
// branch in make_timer_unit() and their name in timer_impls().
#include "models/timer_unit_factory.h"

#include <stdexcept>

#include "models/lockstep_timer_unit.h"
#include "models/native_timer_unit.h"
#include "models/rtl_timer_unit.h"

namespace nestvp {

std::unique_ptr<timer_unit_if> make_timer_unit(const char* name, time_base& tb,
                                               const timer_unit_options& opts) {
    if (opts.impl == "tlm") return std::make_unique<native_timer_unit>(name, tb, opts.dec_bits);
    if (opts.impl == "rtl")
        return std::make_unique<rtl_timer_unit>(name, tb, opts.dec_bits, opts.trace_path);
    if (opts.impl == "lockstep") {
        auto tlm = [&](const char* n) -> std::unique_ptr<timer_unit_if> {
            return std::make_unique<native_timer_unit>(n, tb, opts.dec_bits);
        };
        auto rtl = [&](const char* n) -> std::unique_ptr<timer_unit_if> {
            return std::make_unique<rtl_timer_unit>(n, tb, opts.dec_bits, opts.trace_path);
        };
        return std::make_unique<lockstep_timer_unit>(name, tb, tlm, rtl, "tlm", "rtl");
    }
    std::string known;
    for (const auto& i : timer_impls()) known += (known.empty() ? "" : ", ") + i;
    throw std::invalid_argument("unknown timer impl '" + opts.impl + "' (known: " + known + ")");
}

std::vector<std::string> timer_impls() {
    return {"tlm", "rtl", "lockstep"};
}

}  // namespace nestvp
