#pragma once
// The parameters of L1 memory (guest_memory.h), mounted at `machine.memory.`.
#include <string>

#include "models/params.h"

namespace nestvp {

struct memory_config {
    // Latency per 128-byte line an access touches; GSB traffic through TLM pays it.
    double latency_ns = 4.0;
    std::string latency_source =
        "assumption: the buffers stay in the L2 cache; POWER10 L2 hit ~13 cycles at 3 GHz "
        "(range 1-40 ns, L1 hit to L3 miss)";

    static void describe(param_list<memory_config>& p) {
        using c = memory_config;
        p.add_real("latency_ns", &c::latency_ns, 0, 1e6, false, "ns",
                   "L1 memory latency per 128-byte line an access touches (GSB traffic "
                   "through TLM costs what it moves)");
        p.add_text("latency_source", &c::latency_source, {},
                   "where machine.memory.latency_ns comes from (a source, or \"assumption:\" "
                   "with a reason and range)");
    }
};

}  // namespace nestvp
