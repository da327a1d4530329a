// make_timer_unit: "tlm" -> native_timer_unit. Further implementations (rtl, lockstep) add a
// branch in make_timer_unit() and their name in timer_impls().
#include "models/timer_unit_factory.h"

#include <stdexcept>

#include "models/native_timer_unit.h"

namespace nestvp {

std::unique_ptr<timer_unit_if> make_timer_unit(const char* name, time_base& tb,
                                               const timer_unit_options& opts) {
    if (opts.impl == "tlm") return std::make_unique<native_timer_unit>(name, tb, opts.dec_bits);
    std::string known;
    for (const auto& i : timer_impls()) known += (known.empty() ? "" : ", ") + i;
    throw std::invalid_argument("unknown timer impl '" + opts.impl + "' (known: " + known + ")");
}

std::vector<std::string> timer_impls() {
    return {"tlm"};
}

}  // namespace nestvp
