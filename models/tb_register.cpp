#include "models/tb_register.h"

namespace nestvp {

uint64_t apply_tb_offset_tbu40(uint64_t host_tb, uint64_t offset,
                               const std::function<uint64_t()>& mftb,
                               const std::function<void(uint64_t)>& mttbu40) {
    constexpr uint64_t low = tbu40_granule - 1;
    uint64_t v = host_tb + offset;
    mttbu40(v);
    // L-kvm: "if the lower 24 bits wrapped between the mftb and the mtspr, add 2^24 and redo".
    if ((mftb() & low) < (v & low)) {
        v += tbu40_granule;
        mttbu40(v);
    }
    return v;
}

uint64_t tb_register::apply_offset(uint64_t offset) {
    return apply_tb_offset_tbu40(
        read(), offset, [this] { return read(); }, [this](uint64_t v) { write_tbu40(v); });
}

}  // namespace nestvp
