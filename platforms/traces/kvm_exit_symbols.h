#pragma once
// The trap names of the kvm_hv tracepoints: kvm_trace_symbol_exit (arch/powerpc/kvm/trace_hv.h).
#include <cstdint>
#include <string>

namespace nestvp {

// "HV_DECREMENTER" for 0x980; a trap with no symbol prints as __print_symbolic does, "0x%lx"
// ("0x0" for a pass that took no trap, trace_hv.h lists no 0).
std::string kvm_exit_symbol(uint32_t trap);
// The reverse: the trap of a symbol or of "0x..." text; false if it is neither.
bool kvm_exit_trap(const std::string& symbol, uint32_t& trap);

}  // namespace nestvp
