#pragma once
// The Time Base register as one partition sees it — timer-facilities.md §1.
// TB = time_base::ticks() + offset (mod 2^64), like QEMU's tb_offset: TBL/TBU/TBU40 writes
// change the offset, never the host ticks, so DEC/HDEC expiries (kept in host ticks) are
// unaffected (§1 last bullet). The pure arithmetic is exposed as free functions so that it can
// be checked without a simulation.
#include <cstdint>
#include <functional>

#include "models/time_base.h"

namespace nestvp {

constexpr uint64_t tbu40_granule = 1ull << 24;  // TBU40 leaves TB bits 40:63 (low 24) alone

// §1 TBL write (SPR 284): replace the low 32 bits.
constexpr uint64_t tb_with_tbl(uint64_t tb, uint64_t v) {
    return (tb & 0xFFFFFFFF00000000ull) | (v & 0xFFFFFFFFull);
}
// §1 TBU write (SPR 285): replace the upper 32 bits.
constexpr uint64_t tb_with_tbu(uint64_t tb, uint64_t v) {
    return (v << 32) | (tb & 0xFFFFFFFFull);
}
// §1 TBU40 write (SPR 286): upper 40 bits from the source, low 24 bits keep counting
// (Q-ppc cpu_ppc_store_tbu40).
constexpr uint64_t tb_with_tbu40(uint64_t tb, uint64_t v) {
    return (v & ~(tbu40_granule - 1)) | (tb & (tbu40_granule - 1));
}
// §1 KVM_REG_PPC_TB_OFFSET: the offset is rounded up to a multiple of 2^24 (mod 2^64).
constexpr uint64_t round_tb_offset(uint64_t offset) {
    return (offset + tbu40_granule - 1) & ~(tbu40_granule - 1);
}

// §1 / L-kvm kvmhv_vcpu_entry_p9: apply a TB offset with TBU40 including the carry fix-up.
// new = host_tb + offset; mtTBU40(new); if the live low 24 bits are now below new's low 24
// bits (the low field wrapped between the read and the write), new += 2^24 and mtTBU40 again.
// `mftb` reads the TB being changed, `mttbu40` writes it; host_tb is the value read before.
// Returns the last value written. Exit applies the same sequence with -offset.
uint64_t apply_tb_offset_tbu40(uint64_t host_tb, uint64_t offset,
                               const std::function<uint64_t()>& mftb,
                               const std::function<void(uint64_t)>& mttbu40);

class tb_register {
public:
    explicit tb_register(const time_base& tb, uint64_t offset = 0) : m_tb(tb), m_offset(offset) {}

    uint64_t read() const { return m_tb.ticks() + m_offset; }  // mftb (SPR 268)
    uint64_t read_tbu() const { return read() >> 32; }         // mftbu (SPR 269)
    void write_tbl(uint64_t v) { set_value(tb_with_tbl(read(), v)); }
    void write_tbu(uint64_t v) { set_value(tb_with_tbu(read(), v)); }
    void write_tbu40(uint64_t v) { set_value(tb_with_tbu40(read(), v)); }

    uint64_t offset() const { return m_offset; }
    void set_offset(uint64_t offset) { m_offset = offset; }
    // TB register value <-> host tick (mod 2^64).
    uint64_t to_host(uint64_t tb_value) const { return tb_value - m_offset; }
    uint64_t from_host(uint64_t host_tick) const { return host_tick + m_offset; }
    // The KVM entry sequence against this register (reads its own host TB first).
    uint64_t apply_offset(uint64_t offset);

    const time_base& base() const { return m_tb; }

private:
    void set_value(uint64_t v) { m_offset = v - m_tb.ticks(); }

    const time_base& m_tb;
    uint64_t m_offset;
};

}  // namespace nestvp
