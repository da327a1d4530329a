#pragma once
// A minimal VCD (IEEE 1364 §18) writer, shared by the RTL unit's port trace and the platform
// trace. Signals are declared first, under dotted scopes ("platform.thread0"); the header and a
// $dumpvars are written at the first time, with the values set before it (x for the others).
// Values are written only when they change, and a timestamp only when something changes at it.
// The changes at one time are written in signal order when the time moves on (or at flush()).
// "Pulse" signals (strobes) show for one time unit and then return to 0. One writer per file.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace nestvp {

class vcd_writer {
public:
    // `version` and `comment` go into the header; `timescale` is e.g. "1 ps". Throws
    // std::runtime_error if the file cannot be opened, std::invalid_argument if another writer
    // has it open.
    vcd_writer(const std::string& path, const std::string& version, const std::string& comment,
               const std::string& timescale);
    ~vcd_writer();  // an unstarted file gets its header at time 0; a failed write is kept
    // What failed to write in the writers closed since the last call ("cannot write VCD file
    // 'PATH': reason"; a full disk shows only when the file is closed). The command reports
    // them after its other outputs; taking them clears the list.
    static std::vector<std::string> take_write_errors();
    vcd_writer(const vcd_writer&) = delete;
    vcd_writer& operator=(const vcd_writer&) = delete;

    // Declares a signal before the first at(); returns its id for set().
    int add(const std::string& scope, const std::string& name, unsigned width, bool pulse = false);
    bool started() const { return m_started; }
    // Moves to `time` (never backwards: an earlier time is ignored). The first call writes the
    // header.
    void at(uint64_t time);
    void set(int id, uint64_t value);
    void flush();

private:
    struct signal {
        std::string scope, name;
        unsigned width;
        bool pulse;
        std::string id;
        uint64_t last;
        bool known;  // false until the first value (dumped as x)
    };

    void start(uint64_t time);
    void stamp();  // the pending timestamp, before the first change at it
    void emit(signal& s, uint64_t value);
    void write_pending();
    struct change {
        int id;
        uint64_t value;
    };
    std::vector<change> m_pending;  // set() at the current time, not yet written

    std::string m_path, m_version, m_comment, m_timescale;
    std::FILE* m_file = nullptr;
    std::vector<signal> m_sigs;
    bool m_started = false;
    bool m_pulse_high = false;
    bool m_stamped = false;  // m_time has been written
    uint64_t m_time = 0;
};

}  // namespace nestvp
