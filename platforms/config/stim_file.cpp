#include "platforms/config/stim_file.h"
#include "platforms/config/yaml_guard.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "models/spr_access.h"

namespace nestvp {

namespace {

struct ctx {
    std::string name;

    std::string where(const YAML::Mark& m) const {
        const int line = m.line < 0 ? 1 : m.line + 1;  // yaml-cpp marks are 0-based
        const int col = m.column < 0 ? 1 : m.column + 1;
        return name + ":" + std::to_string(line) + ":" + std::to_string(col);
    }
    [[noreturn]] void fail(const YAML::Mark& m, const std::string& what) const {
        throw stim_error(where(m) + ": " + what);
    }
    [[noreturn]] void fail(const YAML::Node& n, const std::string& what) const {
        fail(n.Mark(), what);
    }

    // A plain integer scalar: decimal or 0x-hex, optionally negative when allow_negative
    // (stored two's complement, mod 2^64).
    uint64_t integer(const YAML::Node& n, const std::string& key, bool allow_negative) const {
        if (!is_plain_scalar(n)) fail(n, "'" + key + "' must be an integer, got " + describe(n));
        const std::string& s = n.Scalar();
        size_t i = 0;
        bool neg = false;
        if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
        const bool hex = s.size() > i + 1 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
        if (hex) i += 2;
        if (i >= s.size()) fail(n, "'" + key + "' must be an integer, got '" + s + "'");
        uint64_t v = 0;
        const uint64_t base = hex ? 16 : 10;
        for (; i < s.size(); ++i) {
            const char c = s[i];
            int d;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (hex && c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (hex && c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            else
                fail(n, "'" + key + "' must be an integer, got '" + s + "'");
            if (v > (UINT64_MAX - d) / base)
                fail(n, "'" + key + "' = " + s + " does not fit in 64 bits");
            v = v * base + d;
        }
        if (neg) {
            if (!allow_negative) fail(n, "'" + key + "' must not be negative, got " + s);
            if (v > (1ull << 63)) fail(n, "'" + key + "' = " + s + " is below -2^63");
            v = ~v + 1;
        }
        return v;
    }
    uint64_t in_range(const YAML::Node& n, const std::string& key, uint64_t lo, uint64_t hi) const {
        const uint64_t v = integer(n, key, false);
        if (v < lo || v > hi)
            fail(n, "'" + key + "' = " + n.Scalar() + " is out of range " + std::to_string(lo) +
                        ".." + std::to_string(hi));
        return v;
    }
    bool bit(const YAML::Node& n, const std::string& key) const {
        if (!is_plain_scalar(n) || (n.Scalar() != "0" && n.Scalar() != "1"))
            fail(n, "'" + key + "' must be 0 or 1, got " + describe(n));
        return n.Scalar() == "1";
    }
    static std::string describe(const YAML::Node& n) {
        if (n.IsMap()) return "a map";
        if (n.IsSequence()) return "a list";
        if (n.IsNull()) return "nothing";
        return describe_scalar(n);
    }
    // Checks that every key of map `n` is in `allowed` (and appears once).
    void keys(const YAML::Node& n, const std::set<std::string>& allowed,
              const std::string& what) const {
        std::set<std::string> seen;
        for (const auto& kv : n) {
            if (!kv.first.IsScalar()) fail(kv.first, "keys of " + what + " must be names");
            const std::string k = kv.first.Scalar();
            if (!allowed.count(k)) {
                std::string list;
                for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
                fail(kv.first, "unknown key '" + k + "' in " + what + " (allowed: " + list + ")");
            }
            if (!seen.insert(k).second) fail(kv.first, "duplicate key '" + k + "' in " + what);
        }
    }
    const YAML::Node map(const YAML::Node& n, const std::string& what) const {
        if (!n.IsMap()) fail(n, what + " must be a map, got " + describe(n));
        return n;
    }
    YAML::Node require(const YAML::Node& m, const std::string& key, const std::string& what) const {
        const YAML::Node v = m[key];
        if (!v) fail(m, what + " is missing '" + key + "'");
        return v;
    }
};

void parse_thread(const ctx& c, const YAML::Node& n, stim_thread& t) {
    c.map(n, "'thread'");
    c.keys(n, {"msr", "lpcr", "tb_hz", "dec_bits"}, "'thread'");
    if (const YAML::Node m = n["msr"]) {
        c.map(m, "'thread.msr'");
        c.keys(m, {"ee", "hv", "pr"}, "'thread.msr'");
        if (m["ee"]) t.ee = c.bit(m["ee"], "ee");
        if (m["hv"]) t.hv = c.bit(m["hv"], "hv");
        if (m["pr"]) t.pr = c.bit(m["pr"], "pr");
    }
    if (const YAML::Node l = n["lpcr"]) {
        c.map(l, "'thread.lpcr'");
        c.keys(l, {"ld", "hdice"}, "'thread.lpcr'");
        if (l["ld"]) t.ld = c.bit(l["ld"], "ld");
        if (l["hdice"]) t.hdice = c.bit(l["hdice"], "hdice");
    }
    // tb_hz up to 1 THz keeps a tick at least one 1 ps SystemC time unit.
    if (n["tb_hz"]) t.tb_hz = c.in_range(n["tb_hz"], "tb_hz", 1, 1000000000000ull);
    if (n["dec_bits"])
        t.dec_bits = static_cast<unsigned>(c.in_range(n["dec_bits"], "dec_bits", 32, 64));
}

// mtspr / mfspr SPR names and their numbers (timer-facilities.md §2, §3).
unsigned spr_number(const ctx& c, const YAML::Node& n, stim_op op) {
    if (!is_plain_scalar(n)) c.fail(n, "'spr' must be a name, got " + ctx::describe(n));
    const std::string s = n.Scalar();
    if (op == stim_op::mtspr) {
        if (s == "DEC") return spr::dec;
        if (s == "HDEC") return spr::hdec;
        if (s == "TBL") return spr::tbl_w;
        if (s == "TBU") return spr::tbu_w;
        if (s == "TBU40") return spr::tbu40;
        if (s == "LPCR") return spr::lpcr;
        c.fail(n, "bad SPR '" + s + "' for mtspr (expected DEC, HDEC, TBL, TBU, TBU40 or LPCR)");
    }
    if (s == "DEC") return spr::dec;
    if (s == "HDEC") return spr::hdec;
    if (s == "TB") return spr::tb;
    if (s == "TBU") return spr::tbu_r;
    c.fail(n, "bad SPR '" + s + "' for mfspr (expected DEC, HDEC, TB or TBU)");
}

stim_step parse_step(const ctx& c, const YAML::Node& n) {
    c.map(n, "a step");
    stim_step s;
    s.where = c.where(n.Mark());
    const YAML::Node op = c.require(n, "op", "step");
    if (!is_plain_scalar(op)) c.fail(op, "'op' must be a name, got " + ctx::describe(op));
    const std::string o = op.Scalar();
    if (o == "mtspr") {
        s.op = stim_op::mtspr;
        c.keys(n, {"at", "op", "spr", "value"}, "an mtspr step");
    } else if (o == "mfspr") {
        s.op = stim_op::mfspr;
        c.keys(n, {"at", "op", "spr"}, "an mfspr step");
    } else if (o == "msr") {
        s.op = stim_op::msr;
        c.keys(n, {"at", "op", "ee", "hv", "pr"}, "an msr step");
    } else if (o == "rfid" || o == "hrfid" || o == "end") {
        s.op = o == "rfid" ? stim_op::rfid : o == "hrfid" ? stim_op::hrfid : stim_op::end;
        c.keys(n, {"at", "op"}, "an " + o + " step");
    } else {
        c.fail(op, "unknown op '" + o + "' (expected mtspr, mfspr, msr, rfid, hrfid or end)");
    }
    s.at = c.integer(c.require(n, "at", "step"), "at", false);
    if (s.op == stim_op::mtspr || s.op == stim_op::mfspr) {
        const YAML::Node spr_node = c.require(n, "spr", o + " step");
        s.spr = spr_number(c, spr_node, s.op);
        s.spr_name = spr_node.Scalar();
    }
    if (s.op == stim_op::mtspr)
        s.value = c.integer(c.require(n, "value", "mtspr step"), "value", true);
    if (s.op == stim_op::msr) {
        if (n["ee"]) s.ee = c.bit(n["ee"], "ee");
        if (n["hv"]) s.hv = c.bit(n["hv"], "hv");
        if (n["pr"]) s.pr = c.bit(n["pr"], "pr");
        if (!s.ee && !s.hv && !s.pr) c.fail(n, "an msr step needs at least one of ee, hv, pr");
    }
    return s;
}

}  // namespace

stim_file parse_stim(const std::string& text, const std::string& name) {
    ctx c{name};
    std::vector<YAML::Node> docs;
    try {
        docs = load_all_yaml_bounded(text);
    } catch (const YAML::Exception& e) {
        c.fail(e.mark, "YAML syntax error: " + e.msg);
    } catch (const yaml_limit_error& e) {
        throw stim_error(name + ":1:1: " + e.what());
    }
    if (docs.empty() || docs[0].IsNull())
        throw stim_error(name + ":1:1: empty stimulus file (expected a map with 'steps:')");
    if (docs.size() > 1) c.fail(docs[1].Mark(), "more than one YAML document");
    const YAML::Node root = docs[0];
    stim_file f;
    f.path = name;
    try {
        c.map(root, "the stimulus file");
        c.keys(root, {"thread", "steps"}, "the stimulus file");
        if (root["thread"]) parse_thread(c, root["thread"], f.thread);
        const YAML::Node steps = c.require(root, "steps", "the stimulus file");
        if (!steps.IsSequence())
            c.fail(steps, "'steps' must be a list, got " + ctx::describe(steps));
        if (steps.size() == 0) c.fail(steps, "'steps' is empty");
        bool ended = false;
        for (const auto& n : steps) {
            if (ended) c.fail(n, "step after 'end'");
            stim_step s = parse_step(c, n);
            if (!f.steps.empty() && s.at < f.steps.back().at)
                c.fail(n["at"], "'at' = " + std::to_string(s.at) +
                                    " is before the previous step's " +
                                    std::to_string(f.steps.back().at) + " (must not decrease)");
            ended = s.op == stim_op::end;
            f.steps.push_back(std::move(s));
        }
    } catch (const YAML::Exception& e) {  // e.g. a bad conversion: still name the place
        c.fail(e.mark, e.msg);
    }
    return f;
}

stim_file load_stim_file(const std::string& path) {
    // A directory would read as an empty file, and a FIFO would block.
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
        throw stim_error(path +
                         ":1:1: expected a stimulus file, found something that is not a "
                         "file (a directory, FIFO or device)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw stim_error(path + ":1:1: cannot open the stimulus file");
    std::ostringstream ss;
    ss << in.rdbuf();
    return parse_stim(ss.str(), path);
}

const char* stim_op_name(stim_op op) {
    switch (op) {
        case stim_op::mtspr:
            return "mtspr";
        case stim_op::mfspr:
            return "mfspr";
        case stim_op::msr:
            return "msr";
        case stim_op::rfid:
            return "rfid";
        case stim_op::hrfid:
            return "hrfid";
        case stim_op::end:
            return "end";
    }
    return "?";
}

}  // namespace nestvp
