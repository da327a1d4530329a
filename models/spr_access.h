#pragma once
// mtspr/mfspr of the timer SPRs with their privilege rules, and the privilege checks of
// rfid/hrfid — timer-facilities.md §1 (SPRs), §2, §3, §4.3.
//
// Rule [ISA-unverified] (after QEMU target/ppc SPR registration and Q-smt "Fix move-to
// timebase SPR access permissions"): TBL/TBU/TBU40/HDEC/LPCR writes and HDEC/LPCR reads are
// hypervisor-only; DEC is privileged; TB/TBU reads are allowed in every state. A
// hypervisor-only access from privileged non-HV state (HV=0, PR=0) is a Hypervisor Emulation
// Assistance interrupt (0xE40, HSRR0/1, new MSR[HV]=1); any privileged access from problem
// state (PR=1) is a Privileged-instruction Program interrupt (0x700, SRR0/1, SRR1 bit 45).
// A refused access changes nothing. The caller decides when to take the exception (raise()).
#include <cstdint>
#include <optional>
#include <string>

#include "models/exception_logic.h"
#include "models/tb_register.h"
#include "models/timer_unit_if.h"

namespace nestvp {

namespace spr {
constexpr unsigned dec = 22;
constexpr unsigned tb = 268;     // read
constexpr unsigned tbu_r = 269;  // read
constexpr unsigned tbl_w = 284;  // write
constexpr unsigned tbu_w = 285;  // write
constexpr unsigned tbu40 = 286;  // write
constexpr unsigned hdec = 310;
constexpr unsigned lpcr = 318;
}  // namespace spr

// SRR1 bit 45 (IBM): Program interrupt caused by a privileged instruction.
constexpr uint64_t srr1_privileged = 1ull << 18;

struct spr_result {
    uint64_t value = 0;                 // mfspr result (0 for mtspr or on a fault)
    std::optional<uint32_t> exception;  // vector to take instead (0x700 or 0xE40)
    uint64_t srr1_flags = 0;            // extra (H)SRR1 bits for that exception
    bool ok() const { return !exception; }
};

class spr_access {
public:
    spr_access(exception_logic& ic, timer_unit_if& timers, tb_register& tb)
        : m_ic(ic), m_timers(timers), m_tb(tb) {}

    // Throws std::invalid_argument for an SPR number this model does not implement in that
    // direction (e.g. mfspr of the write-only TBL/TBU/TBU40).
    spr_result mfspr(unsigned spr_num);
    spr_result mtspr(unsigned spr_num, uint64_t value);
    // rfid: privileged; hrfid: hypervisor-only. On success value = the NIA to resume at.
    spr_result rfid();
    spr_result hrfid();
    // Takes the exception a refused access names; cia = address of the faulting instruction.
    interrupt_record raise(const spr_result& r, uint64_t cia);

    static std::string spr_name(unsigned spr_num);  // "DEC", ..., or the number

private:
    enum class level { user, privileged, hypervisor };
    std::optional<spr_result> refuse(level needed) const;

    exception_logic& m_ic;
    timer_unit_if& m_timers;
    tb_register& m_tb;
};

}  // namespace nestvp
