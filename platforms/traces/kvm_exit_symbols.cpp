#include "platforms/traces/kvm_exit_symbols.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace nestvp {
namespace {

struct exit_symbol {
    uint32_t trap;
    const char* name;
};
// kvm_trace_symbol_exit, in trace_hv.h's order.
constexpr exit_symbol k_symbols[] = {
    {0x100, "SYSTEM_RESET"},   {0x200, "MACHINE_CHECK"},  {0x300, "DATA_STORAGE"},
    {0x380, "DATA_SEGMENT"},   {0x400, "INST_STORAGE"},   {0x480, "INST_SEGMENT"},
    {0x500, "EXTERNAL"},       {0x502, "EXTERNAL_HV"},    {0x600, "ALIGNMENT"},
    {0x700, "PROGRAM"},        {0x800, "FP_UNAVAIL"},     {0x900, "DECREMENTER"},
    {0x980, "HV_DECREMENTER"}, {0xc00, "SYSCALL"},        {0xd00, "TRACE"},
    {0xe00, "H_DATA_STORAGE"}, {0xe20, "H_INST_STORAGE"}, {0xe40, "H_EMUL_ASSIST"},
    {0xf00, "PERFMON"},        {0xf20, "ALTIVEC"},        {0xf40, "VSX"},
};

}  // namespace

std::string kvm_exit_symbol(uint32_t trap) {
    for (const auto& s : k_symbols)
        if (s.trap == trap) return s.name;
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", trap);
    return buf;
}

bool kvm_exit_trap(const std::string& symbol, uint32_t& trap) {
    for (const auto& s : k_symbols)
        if (symbol == s.name) {
            trap = s.trap;
            return true;
        }
    if (symbol.size() < 3 || symbol.compare(0, 2, "0x") != 0) return false;
    char* end = nullptr;
    const unsigned long v = std::strtoul(symbol.c_str() + 2, &end, 16);
    if (*end != '\0' || v > 0xffffffffu) return false;
    trap = static_cast<uint32_t>(v);
    return true;
}

}  // namespace nestvp
