#pragma once
// Directed-stimulus files for one hardware thread (`nestvp stim FILE`;
// format in docs/stim-format.md). The loader checks everything it can before a run: unknown
// keys, wrong types, bad SPR names, values out of range, decreasing `at`, missing fields,
// empty files. Every error is a stim_error whose message is "file:line:column: problem".
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "platforms/config/yaml_guard.h"

namespace nestvp {

// The message is printable(): a byte from the input never reaches a terminal raw.
class stim_error : public std::runtime_error {
public:
    explicit stim_error(const std::string& what) : std::runtime_error(printable(what)) {}
};

struct stim_thread {
    bool ee = false, hv = true, pr = false;  // initial MSR fields
    bool ld = false, hdice = true;           // initial LPCR fields
    uint64_t tb_hz = 512000000;              // timer-facilities.md §1
    unsigned dec_bits = 56;                  // §2.1
};

enum class stim_op { mtspr, mfspr, msr, rfid, hrfid, end };

struct stim_step {
    uint64_t at = 0;  // host TB tick, counted from 0
    stim_op op = stim_op::end;
    unsigned spr = 0;                // SPR number (mtspr/mfspr)
    std::string spr_name;            // as written: DEC, HDEC, TB, TBU, TBL, TBU40, LPCR
    uint64_t value = 0;              // mtspr
    std::optional<bool> ee, hv, pr;  // msr
    std::string where;               // "file:line:column" of the step
};

struct stim_file {
    std::string path;
    stim_thread thread;
    std::vector<stim_step> steps;
};

// Loads and checks a stimulus file.
stim_file load_stim_file(const std::string& path);
// Same for text already in memory; `name` stands for the file in messages.
stim_file parse_stim(const std::string& text, const std::string& name);

const char* stim_op_name(stim_op op);

}  // namespace nestvp
