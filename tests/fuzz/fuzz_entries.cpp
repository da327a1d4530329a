// Fuzz entry functions (docs/fuzzing.md). Besides "no crash, no sanitizer report", each checks
// the documented contract of the code under test:
//  - gsb_decode: never reads outside the buffer (ASan, exact-size copy); accepted elements lie
//    inside the buffer, have known IDs of the right size and scope; failures carry a PAPR
//    element/parameter code; decoding the first gsb_extent() bytes gives the same result
//    (gsb_codec.h); re-encoding the accepted elements decodes to the same elements.
//  - l0_guest_table: "an error leaves every guest as it was" (l0_guest_table.h, a
//    hostile L1): after a failing hcall the L0 snapshot and guest memory are unchanged; a
//    successful GET or run exit leaves a well-formed buffer in guest memory.
//  - load_platform: only config_error escapes; an accepted file dumps to YAML that loads back
//    to the same dump (platform_loader.h).
//  - parse_stim: only stim_error escapes; accepted steps are ordered and complete.
#include "tests/fuzz/fuzz_entries.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "platforms/config/platform_loader.h"
#include "platforms/config/stim_file.h"
#include "sw/l0/l0_guest_table.h"
#include "sw/papr/gsb_codec.h"
#include "sw/papr/papr.h"
#include "sw/papr/vector_memory_port.h"

namespace nestvp::fuzz {

namespace {

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

// Consumes the input front to back; reads past the end give zeros.
class reader {
public:
    reader(const uint8_t* p, size_t n) : m_p(p), m_n(n) {}
    bool empty() const { return m_n == 0; }
    uint8_t u8() {
        if (!m_n) return 0;
        --m_n;
        return *m_p++;
    }
    uint16_t u16() { return static_cast<uint16_t>(u8() << 8 | u8()); }
    uint64_t u64() {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v = v << 8 | u8();
        return v;
    }
    // Up to n bytes (fewer at the end of the input).
    std::vector<uint8_t> bytes(size_t n) {
        n = std::min(n, m_n);
        std::vector<uint8_t> v(m_p, m_p + n);
        m_p += n;
        m_n -= n;
        return v;
    }

private:
    const uint8_t* m_p;
    size_t m_n;
};

bool is_papr_decode_code(int64_t rc) {
    return rc == papr::H_PARAMETER || rc == papr::H_INVALID_ELEMENT_ID ||
           rc == papr::H_INVALID_ELEMENT_SIZE || rc == papr::H_INVALID_ELEMENT_VALUE;
}

bool scope_allowed(const gsb_id_info& info, const gsb_request& req) {
    switch (info.scope) {
        case gsb_scope::any:
            return true;
        case gsb_scope::guest_wide:
            return req.guest_wide && !req.host_wide;
        case gsb_scope::host_wide:
            return req.host_wide;
        case gsb_scope::meta:
        case gsb_scope::thread:
            return !req.guest_wide && !req.host_wide;
    }
    return false;
}

bool same_elements(const std::vector<gsb_element>& a, const std::vector<gsb_element>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].id != b[i].id || a[i].len != b[i].len || a[i].offset != b[i].offset ||
            a[i].index != b[i].index)
            return false;
    return true;
}

// ---------------------------------------------------------------- L0 hcall script

constexpr uint64_t k_mem_size = 64 * 1024;

const uint64_t k_opcodes[] = {papr::H_GUEST_GET_CAPABILITIES,
                              papr::H_GUEST_SET_CAPABILITIES,
                              papr::H_GUEST_CREATE,
                              papr::H_GUEST_CREATE_VCPU,
                              papr::H_GUEST_GET_STATE,
                              papr::H_GUEST_SET_STATE,
                              papr::H_GUEST_DELETE,
                              papr::H_GUEST_RUN_VCPU,
                              papr::H_GUEST_COPY_MEMORY,
                              papr::H_CEDE,
                              papr::H_ENTER_NESTED};

const uint64_t k_special[] = {0,
                              1,
                              2,
                              3,
                              papr::H_GUEST_FLAGS_WIDE,
                              papr::H_GUEST_FLAGS_HOST_WIDE,
                              papr::H_GUEST_FLAGS_WIDE | papr::H_GUEST_FLAGS_HOST_WIDE,
                              papr::H_GUEST_CAP_POWER9,
                              papr::H_GUEST_CAP_POWER10,
                              papr::H_GUEST_CAP_POWER11,
                              papr::H_GUEST_CAP_COPY_MEM,
                              papr::H_GUEST_CREATE_CONTINUE_NONE,
                              papr::PAPR_NESTED_GUEST_MAX - 1,
                              papr::PAPR_NESTED_GUEST_VCPU_MAX,
                              papr::VCPU_RUN_BUF_MIN_SIZE,
                              papr::VCPU_RUN_BUF_MAX_SIZE,
                              papr::VCPU_RUN_BUF_MAX_SIZE + 1,
                              papr::GSB_MAX_BUF_SIZE,
                              papr::GSB_MAX_BUF_SIZE + 1,
                              0x1000,
                              0x4000,
                              0x8000,
                              k_mem_size - 0x80,
                              k_mem_size - 1,
                              k_mem_size,
                              ~uint64_t{0},
                              ~uint64_t{0} - 0x7F};

const uint64_t k_exit_vectors[] = {papr::EXIT_NONE, papr::EXIT_EXTERNAL,  papr::EXIT_DEC,
                                   papr::EXIT_HDEC, papr::EXIT_HCALL,     papr::EXIT_HDSI,
                                   papr::EXIT_HISI, papr::EXIT_HEA,       papr::EXIT_HMI,
                                   papr::EXIT_HFAC, papr::EXIT_H_DOORBELL};

template <size_t N>
uint64_t pick_from(reader& in, const uint64_t (&table)[N]) {
    return table[in.u8() % N];
}

// An argument: raw, small (guest/vCPU ids, flags), or from the interesting-values table.
uint64_t pick_arg(reader& in) {
    switch (in.u8() % 4) {
        case 0:
            return in.u64();
        case 1:
            return in.u8() % 8;
        default:
            return pick_from(in, k_special);
    }
}

// A guest-state buffer built from the input: known IDs with their sizes (sometimes raw IDs or
// lengths), sometimes a wrong element count.
std::vector<uint8_t> make_gsb(reader& in) {
    gsb_builder b;
    const auto& ids = gsb_all_ids();
    const unsigned n = in.u8() % 12;
    for (unsigned i = 0; i < n && !in.empty(); ++i) {
        const uint8_t how = in.u8();
        if (how % 8 == 0) {  // raw element
            const uint16_t id = in.u16();
            const uint16_t len = in.u8();
            std::vector<uint8_t> v = in.bytes(len);
            v.resize(len);
            b.add_raw(id, len, v.data());
            continue;
        }
        const gsb_id_info& info = ids[in.u8() % ids.size()];
        if (info.id == gsid::RUN_INPUT || info.id == gsid::RUN_OUTPUT) {
            b.add_buffer_info(info.id, pick_arg(in), pick_arg(in));
        } else if (info.id == gsid::PARTITION_TABLE && how % 2) {
            uint8_t v[24];
            store_be64(v, in.u64());
            store_be64(v + 8, 52);
            store_be64(v + 16, uint64_t{1} << (in.u8() % 20));
            b.add(info.id, v, sizeof v);
        } else {
            std::vector<uint8_t> v = in.bytes(info.size);
            v.resize(info.size);
            b.add_raw(info.id, info.size, v.data());
        }
    }
    if (in.u8() % 8 == 0) b.set_count(in.u8());
    return b.bytes();
}

// The shortest legal path to a runnable vCPU, so the fuzzer spends its time past the set-up.
void bootstrap(l0_guest_table& l0, vector_memory_port& mem, reader& in) {
    l0.h_guest_set_capabilities(0, papr::H_GUEST_CAP_POWER10);
    const hcall_result g = l0.h_guest_create(0, papr::H_GUEST_CREATE_CONTINUE_NONE);
    if (!g.ok()) return;
    const uint64_t vcpu = in.u8() % 4;
    l0.h_guest_create_vcpu(0, g.r4, vcpu);
    gsb_builder pt;
    uint8_t v[24];
    store_be64(v, 0x200000);
    store_be64(v + 8, 52);
    store_be64(v + 16, 1 << 16);
    pt.add(gsid::PARTITION_TABLE, v, sizeof v);
    mem.write(0, pt.bytes().data(), pt.size());
    l0.h_guest_set_state(papr::H_GUEST_FLAGS_WIDE, g.r4, 0, 0, pt.size(), mem);
    gsb_builder bufs;
    bufs.add_buffer_info(gsid::RUN_INPUT, 0x4000, 0x1000);
    bufs.add_buffer_info(gsid::RUN_OUTPUT, 0x8000, 0x1000);
    mem.write(0, bufs.bytes().data(), bufs.size());
    l0.h_guest_set_state(0, g.r4, vcpu, 0, bufs.size(), mem);
}

// Counts the writes that reach guest memory, so a failing hcall that wrote is caught without
// copying the whole memory around every call (memory_port: no partial writes on error).
class counting_port : public memory_port {
public:
    explicit counting_port(vector_memory_port& mem) : m_mem(mem) {}
    bool read(uint64_t addr, void* dst, size_t len) override { return m_mem.read(addr, dst, len); }
    bool write(uint64_t addr, const void* src, size_t len) override {
        const bool ok = m_mem.write(addr, src, len);
        if (ok) ++m_writes;
        return ok;
    }
    uint64_t writes() const { return m_writes; }

private:
    vector_memory_port& m_mem;
    uint64_t m_writes = 0;
};

// A GSB that L0 wrote at addr must decode as a GET reply.
void expect_gsb_at(vector_memory_port& mem, uint64_t addr, uint64_t size, unsigned elements,
                   const char* what) {
    const size_t n =
        static_cast<size_t>(std::min<uint64_t>(size, mem.size() - (addr - mem.base())));
    std::vector<uint8_t> buf(n);
    if (!mem.read(addr, buf.data(), n)) fail(std::string(what) + ": buffer not readable");
    std::vector<gsb_element> el;
    gsb_request req;
    req.op = gsb_op::get;
    gsb_status st = gsb_decode(buf.data(), buf.size(), req, el);
    // A guest-wide GET decodes with the wide flag; try it before calling the buffer bad.
    if (!st.ok()) {
        req.guest_wide = true;
        st = gsb_decode(buf.data(), buf.size(), req, el);
    }
    if (!st.ok()) {
        req.guest_wide = false;
        req.host_wide = true;
        st = gsb_decode(buf.data(), buf.size(), req, el);
    }
    if (!st.ok()) fail(std::string(what) + ": L0 left a malformed buffer: " + st.message);
    if (elements != ~0u && el.size() > elements)
        fail(std::string(what) + ": more elements in the buffer than reported");
}

}  // namespace

// ---------------------------------------------------------------- entries

int gsb_decoder(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    gsb_request req;
    req.op = (data[0] & 1) ? gsb_op::set : gsb_op::get;
    req.guest_wide = (data[0] & 2) != 0;
    req.host_wide = (data[0] & 4) != 0;
    // An exact-size heap copy: any read past the end is an ASan report.
    std::vector<uint8_t> buf(data + 1, data + size);
    const uint8_t* p = buf.empty() ? nullptr : buf.data();
    std::vector<gsb_element> el;
    const gsb_status st = gsb_decode(p, buf.size(), req, el);
    if (!st.ok()) {
        if (!is_papr_decode_code(st.rc))
            fail("gsb_decode: unexpected code " + std::to_string(st.rc));
        if (st.message.empty()) fail("gsb_decode: error without a message");
    } else {
        uint32_t last_index = 0;
        for (size_t i = 0; i < el.size(); ++i) {
            const gsb_element& e = el[i];
            const gsb_id_info* info = gsb_find_id(e.id);
            if (!info || e.id == gsid::BLANK) fail("gsb_decode: returned unknown or BLANK ID");
            if (uint64_t{e.offset} + e.len > buf.size()) fail("gsb_decode: element past the end");
            if (e.len != info->size) fail("gsb_decode: accepted a wrong size");
            if (req.op == gsb_op::set && info->read_only) fail("gsb_decode: SET of read-only ID");
            if (!scope_allowed(*info, req)) fail("gsb_decode: accepted ID of the wrong scope");
            if (i && e.index <= last_index) fail("gsb_decode: indices not increasing");
            last_index = e.index;
            (void)gsb_mask_value(e.id, e.len == 8 ? load_be64(p + e.offset) : 0);
        }
        // Re-encode and decode again: the same IDs and lengths in the same order.
        gsb_builder b;
        for (const gsb_element& e : el) b.add_raw(e.id, e.len, p + e.offset);
        std::vector<gsb_element> el2;
        if (!gsb_decode(b.bytes().data(), b.size(), req, el2).ok() || el2.size() != el.size())
            fail("gsb_decode: re-encoded buffer does not decode the same");
        for (size_t i = 0; i < el.size(); ++i)
            if (el2[i].id != el[i].id || el2[i].len != el[i].len ||
                std::memcmp(b.bytes().data() + el2[i].offset, p + el[i].offset, el[i].len))
                fail("gsb_decode: re-encoded element differs");
    }
    // gsb_codec.h: decoding the first gsb_extent() bytes gives the same result.
    const size_t extent = gsb_extent(p, buf.size());
    if (extent) {
        if (extent > buf.size()) fail("gsb_extent past the end");
        std::vector<uint8_t> head(buf.begin(), buf.begin() + static_cast<long>(extent));
        std::vector<gsb_element> el3;
        const gsb_status st3 = gsb_decode(head.data(), head.size(), req, el3);
        if (st3.rc != st.rc || st3.index != st.index || !same_elements(el, el3))
            fail("gsb_extent: decoding the extent differs from decoding the buffer (" +
                 std::to_string(st.rc) + " vs " + std::to_string(st3.rc) + ")");
    }
    return 0;
}

int l0_hcall(const uint8_t* data, size_t size) {
    reader in(data, size);
    vector_memory_port mem(k_mem_size);
    counting_port port(mem);
    l0_guest_table l0;
    if (in.u8() & 1) bootstrap(l0, mem, in);
    for (unsigned step = 0; step < 64 && !in.empty(); ++step) {
        const std::string before = l0.snapshot();
        const uint64_t writes_before = port.writes();
        hcall_result r;
        bool is_call = true;
        std::string what;
        uint64_t out_addr = 0, out_size = 0;
        switch (in.u8() % 8) {
            case 0:
            case 1: {  // any hcall through dispatch
                uint64_t args[6];
                const uint64_t op = (in.u8() % 16) ? pick_from(in, k_opcodes) : in.u64();
                for (uint64_t& a : args) a = pick_arg(in);
                what = "dispatch(" + std::to_string(op) + ")";
                r = l0.dispatch(op, args, port);
                if (r.ok() && op == papr::H_GUEST_GET_STATE)
                    expect_gsb_at(mem, args[3], args[4], r.elements_out, "GET_STATE");
                if (r.ok() && !l0_guest_table::handles(op))
                    fail(what + ": unknown opcode succeeded");
                break;
            }
            case 2: {
                const uint64_t g = pick_arg(in), v = pick_arg(in), f = pick_arg(in);
                what = "begin_run";
                r = l0.begin_run(g, v, f, port);
                break;
            }
            case 3: {
                const uint64_t g = pick_arg(in), v = pick_arg(in);
                const uint64_t ev = (in.u8() % 8) ? pick_from(in, k_exit_vectors) : in.u64();
                const auto pol = static_cast<run_output_policy>(in.u8() % 3);
                what = "end_run";
                r = l0.end_run(g, v, ev, pol, port);
                if (r.ok()) {
                    if (!l0.run_output_buffer(g, v, out_addr, out_size))
                        fail("end_run succeeded without an output buffer");
                    expect_gsb_at(mem, out_addr, out_size, r.elements_out, "end_run");
                    if (r.r4 != ev) fail("end_run: r4 is not the exit vector");
                }
                break;
            }
            case 4:
            case 5: {  // a structured GSB somewhere in memory
                const uint64_t addr = pick_arg(in) % k_mem_size;
                const std::vector<uint8_t> b = make_gsb(in);
                mem.write(addr, b.data(), std::min<uint64_t>(b.size(), k_mem_size - addr));
                is_call = false;
                break;
            }
            case 6: {  // raw bytes somewhere in memory
                const uint64_t addr = pick_arg(in) % k_mem_size;
                const std::vector<uint8_t> b = in.bytes(in.u8() * 4u);
                mem.write(addr, b.data(), std::min<uint64_t>(b.size(), k_mem_size - addr));
                is_call = false;
                break;
            }
            default:
                bootstrap(l0, mem, in);
                is_call = false;
                break;
        }
        if (!is_call || r.ok()) continue;
        if (l0.snapshot() != before)
            fail(what + " failed (r3=" + std::to_string(r.r3) + ") but changed L0 state");
        if (port.writes() != writes_before)
            fail(what + " failed (r3=" + std::to_string(r.r3) + ") but wrote guest memory");
    }
    return 0;
}

namespace {

// A private directory that mirrors platforms/ (cores/ and the shipped files) so that inputs
// may include them by the names the shipped files use.
const std::string& scratch_dir() {
    // Never destroyed (the atexit clean-up below runs after static destructors would).
    static const std::string* dir = [] {
        char tmpl[] = "/tmp/nestvp-fuzz-XXXXXX";
        const char* d = ::mkdtemp(tmpl);
        if (!d) fail("cannot create a temporary directory");
        namespace fs = std::filesystem;
        const fs::path src = fs::path(NESTVP_SOURCE_DIR) / "platforms";
        std::error_code ec;
        fs::create_directory_symlink(src / "cores", fs::path(d) / "cores", ec);
        for (const char* f : {"reference.yaml", "nestedv1.yaml", "idle-heavy.yaml"})
            fs::copy_file(src / f, fs::path(d) / f, ec);
        auto* s = new std::string(d);
        std::atexit([] {
            std::error_code ec2;
            std::filesystem::remove_all(scratch_dir(), ec2);
        });
        return s;
    }();
    return *dir;
}

}  // namespace

int platform_loader(const uint8_t* data, size_t size) {
    if (size == 0) data = reinterpret_cast<const uint8_t*>("");  // memchr needs a pointer
    const char* p = reinterpret_cast<const char*>(data);
    const char* nul = static_cast<const char*>(std::memchr(p, 0, size));
    const std::string text(p, nul ? static_cast<size_t>(nul - p) : size);
    std::vector<std::string> sets;
    for (const char* s = nul; s && s < p + size && sets.size() < 4;) {
        ++s;
        const char* e =
            static_cast<const char*>(std::memchr(s, 0, static_cast<size_t>(p + size - s)));
        sets.emplace_back(s, e ? static_cast<size_t>(e - s) : static_cast<size_t>(p + size - s));
        s = e;
    }
    const std::string path = scratch_dir() + "/fuzz.yaml";
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << text;
    }
    std::string dump;
    try {
        dump = dump_config(load_platform(path, sets));
    } catch (const config_error& e) {
        if (std::string(e.what()).empty()) fail("config_error without a message");
        return 0;
    } catch (const std::exception& e) {
        fail(std::string("load_platform let a non-config_error escape: ") + e.what());
    } catch (...) {
        fail("load_platform let a non-exception escape");
    }
    // platform_loader.h: the dump is YAML that load_platform accepts, and it is a fixed point.
    const std::string path2 = scratch_dir() + "/dump.yaml";
    {
        std::ofstream out(path2, std::ios::binary | std::ios::trunc);
        out << dump;
    }
    // The dump's first line is a comment naming the file it came from; the rest must repeat.
    const auto body = [](const std::string& d) { return d.substr(d.find('\n') + 1); };
    try {
        if (body(dump_config(load_platform(path2))) != body(dump))
            fail("dump_config is not a fixed point");
    } catch (const std::exception& e) {
        fail(std::string("dump_config output does not load: ") + e.what() + "\n" + dump);
    }
    return 0;
}

int stim_loader(const uint8_t* data, size_t size) {
    const std::string text(size ? reinterpret_cast<const char*>(data) : "", size);
    stim_file f;
    try {
        f = parse_stim(text, "fuzz.stim");
    } catch (const stim_error& e) {
        if (std::string(e.what()).rfind("fuzz.stim:", 0) != 0)
            fail(std::string("stim_error does not name the file: ") + e.what());
        return 0;
    } catch (const std::exception& e) {
        fail(std::string("parse_stim let a non-stim_error escape: ") + e.what());
    } catch (...) {
        fail("parse_stim let a non-exception escape");
    }
    // docs/stim-format.md: steps non-empty, `at` non-decreasing, nothing after `end`.
    if (f.steps.empty()) fail("parse_stim accepted a file without steps");
    for (size_t i = 0; i < f.steps.size(); ++i) {
        const stim_step& s = f.steps[i];
        if (i && s.at < f.steps[i - 1].at) fail("parse_stim accepted a decreasing `at`");
        if (s.op == stim_op::end && i + 1 != f.steps.size()) fail("parse_stim: step after end");
        if ((s.op == stim_op::mtspr || s.op == stim_op::mfspr) && s.spr_name.empty())
            fail("parse_stim: SPR step without an SPR");
        if (s.op == stim_op::msr && !s.ee && !s.hv && !s.pr) fail("parse_stim: empty msr step");
    }
    if (f.thread.dec_bits < 32 || f.thread.dec_bits > 64) fail("parse_stim: dec_bits out of range");
    if (f.thread.tb_hz == 0) fail("parse_stim: tb_hz 0");
    return 0;
}

}  // namespace nestvp::fuzz
