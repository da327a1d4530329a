#pragma once
// A software context a hardware thread can run: L0 firmware, an L1 vCPU or an L2 vCPU.
// While it is not running, its architected registers live here (saved by the hypervisor
// that switched it out); while it runs, MSR is live in the thread's exception logic.
#include <array>
#include <cstdint>
#include <string>

namespace nestvp {

enum class context_level : uint8_t { l0 = 0, l1 = 1, l2 = 2 };

struct sw_context {
    std::string name;
    context_level level = context_level::l1;
    std::array<uint64_t, 32> gpr{};  // r3 carries hcall numbers and return codes
    uint64_t nia = 0;                // next instruction (synthetic addresses per code path)
    uint64_t msr = 0;                // MSR to resume with
    // SRR0/1 while switched out: a hypervisor saves and restores its guest's (KVM's shregs),
    // so a guest trapping from an interrupt handler still returns with rfid.
    uint64_t srr0 = 0, srr1 = 0;
    uint64_t tb_offset = 0;  // TB offset in force while it runs (host ticks -> its TB)
};

}  // namespace nestvp
