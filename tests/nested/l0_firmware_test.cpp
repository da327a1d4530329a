// The L0 firmware driven from a test L1 context through the TLM hcall socket, with a small
// L2 program: create/run/exit/get/set sequences, an HDEC expiry already in
// the past, TB offsets that add up across levels, the DEC expiry kept across runs, and bad
// arguments answered with the PAPR codes.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>

#include "models/core.h"
#include "models/guest_memory.h"
#include "models/hardware_thread.h"
#include "models/hcall_target.h"
#include "models/thread_memory_port.h"
#include "sc_test_guard.h"
#include "sw/l0/l0_firmware.h"
#include "sw/metrics/nested_metrics.h"
#include "sw/papr/gsb_codec.h"
#include "sw/papr/gsb_ids.h"
#include "sw/papr/papr.h"

namespace {

using namespace nestvp;

constexpr uint64_t l1_offset = 3ull << 24;
constexpr uint64_t l2_offset = 9ull << 24;
constexpr uint64_t in_buf = 0x10000, out_buf = 0x14000, scratch = 0x18000;

l0_costs test_costs() {
    // Round figures, and nothing for the steps these tests do not time.
    const auto cycles = [](double n) { return cost_param{n, "test"}; };
    l0_costs k;
    k.hcall_entry = k.hcall_return = cycles(100);
    k.partition_switch = cycles(1000);
    k.gsb_element = cycles(10);
    k.gsb_byte = k.reg_move = k.timer_write = cycles(0);
    k.return_to_guest = k.exit_interrupt = cycles(0);
    k.get_state = k.set_state = cycles(200);
    k.guest_create = cycles(500);
    k.cede = k.prod = cycles(100);
    return k;
}

nested_probe bound_probe(nested_metrics& m) {
    nested_probe p;
    p.bind(&m);
    return p;
}

struct l0_bench {
    core c{"core", 3000000000ull, {1.0}, 512000000};
    hardware_thread t{"t", c, 0, {}};
    guest_memory mem{"mem", 1 << 20};
    nested_metrics metrics{1};
    nested_probe probe = bound_probe(metrics);
    tlm_memory_port l0port{"l0port"};
    l0_firmware l0;
    hcall_target l0_target;
    tlm_memory_port l1port{"l1port"};
    thread_memory_port l1mem{l1port, nullptr};
    sw_context l1, l2;
    unsigned l2_entries = 0;
    std::vector<int64_t> l2_tb_minus_host;  // L2's TB - host ticks, at each entry
    uint64_t guest = 0;

    explicit l0_bench(const l0_costs& costs = test_costs())
        : l0(l0port, run_output_policy::powervm, costs, probe), l0_target("l0", l0) {
        t.hcall_socket.bind(l0_target.socket);
        l0_target.threads.bind(t);
        l0port.socket.bind(mem.socket);
        l1port.socket.bind(mem.socket);
        l1.level = context_level::l1;
        l1.tb_offset = l1_offset;
        l2.level = context_level::l2;
        l2.msr = msr::sf | msr::me | msr::ee;
        l2.nia = 0xc000000000001000ull;
        t.set_host(&l1);
        t.tbr().set_offset(l1_offset);
        t.irq().set_msr(msr::sf | msr::me | msr::ee);
        t.set_level(context_level::l1);
        l0.set_context_provider(
            [this](uint64_t, uint64_t vcpu) { return vcpu == 0 ? &l2 : nullptr; });
        // The L2 program: note the TB it sees, do a little work, cede; forever.
        sc_core::sc_spawn([this] {
            t.await_entry(l2);
            for (;;) {
                ++l2_entries;
                l2_tb_minus_host.push_back(static_cast<int64_t>(t.mftb() - c.tb().ticks()));
                t.execute(3000);
                l2.gpr[3] = papr::H_CEDE;
                t.guest_hcall();
            }
        });
    }

    hcall_frame hcall(uint64_t nr, uint64_t a4 = 0, uint64_t a5 = 0, uint64_t a6 = 0,
                      uint64_t a7 = 0, uint64_t a8 = 0) {
        hcall_frame f;
        f.r[3] = nr, f.r[4] = a4, f.r[5] = a5, f.r[6] = a6, f.r[7] = a7, f.r[8] = a8;
        t.hcall(f);
        return f;
    }
    int64_t set_state(uint64_t flags, uint64_t vcpu, const gsb_builder& b) {
        l1mem.write(scratch, b.bytes().data(), b.size());
        return static_cast<int64_t>(
            hcall(papr::H_GUEST_SET_STATE, flags, guest, vcpu, scratch, b.size()).r[3]);
    }
    uint64_t get_u64(uint16_t id) {
        gsb_builder q;
        q.add_request(id);
        l1mem.write(scratch, q.bytes().data(), q.size());
        EXPECT_EQ(hcall(papr::H_GUEST_GET_STATE, 0, guest, 0, scratch, q.size()).r[3], 0u);
        uint8_t v[8];
        l1mem.read(scratch + 8, v, 8);
        return load_be64(v);
    }
    uint64_t l1_tb() { return t.mftb(); }
    // Create, configure and register vCPU 0 (buffers, NIA, MSR, LPCR, DEC expiry).
    void create(uint64_t dec_expiry) {
        ASSERT_EQ(hcall(papr::H_GUEST_SET_CAPABILITIES, 0, papr::H_GUEST_CAP_POWER10).r[3], 0u);
        const hcall_frame g = hcall(papr::H_GUEST_CREATE, 0, papr::H_GUEST_CREATE_CONTINUE_NONE);
        ASSERT_EQ(g.r[3], 0u);
        guest = g.r[4];
        gsb_builder wide;
        uint8_t pt[24] = {};
        store_be64(pt, 0x20000), store_be64(pt + 8, 52), store_be64(pt + 16, 1 << 16);
        wide.add(gsid::PARTITION_TABLE, pt, sizeof(pt));
        wide.add_u64(gsid::TB_OFFSET, l2_offset);
        ASSERT_EQ(set_state(papr::H_GUEST_FLAGS_WIDE, 0, wide), 0);
        ASSERT_EQ(hcall(papr::H_GUEST_CREATE_VCPU, 0, guest, 0).r[3], 0u);
        gsb_builder b;
        b.add_buffer_info(gsid::RUN_INPUT, in_buf, 4096)
            .add_buffer_info(gsid::RUN_OUTPUT, out_buf, 1024);
        b.add_u64(gsid::NIA, l2.nia).add_u64(gsid::MSR, l2.msr).add_u64(gsid::LPCR, lpcr::ld);
        b.add_u64(gsid::DEC_EXPIRY_TB, dec_expiry);
        ASSERT_EQ(set_state(0, 0, b), 0);
    }
    hcall_frame run(uint64_t hdec_expiry, uint64_t flags = 0, uint64_t g = ~0ull, uint64_t v = 0) {
        gsb_builder in;
        in.add_u64(gsid::HDEC_EXPIRY_TB, hdec_expiry).add_u64(gsid::LPCR, lpcr::ld);
        l1mem.write(in_buf, in.bytes().data(), in.size());
        return hcall(papr::H_GUEST_RUN_VCPU, flags, g == ~0ull ? guest : g, v);
    }
    // Runs `body` as the L1 context for up to 10 ms simulated; it must return in that time.
    void in_l1(std::function<void()> body) {
        bool done = false;
        sc_core::sc_spawn([this, body, &done] {
            t.set_active(true);
            body();
            done = true;
        });
        sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));
        EXPECT_TRUE(done) << "the L1 body did not return within 10 ms simulated";
    }
};

}  // namespace

TEST(l0_firmware, create_run_exit_get_set) {
    NESTVP_SC_TEST_GUARD();
    l0_bench b;
    b.in_l1([&] {
        b.create(b.l1_tb() + 10000000);
        const hcall_frame r = b.run(b.l1_tb() + 1000000);
        EXPECT_EQ(r.r[3], 0u);
        EXPECT_EQ(r.r[4], 0xC00u);  // the L2 H_CEDE
        // Output buffer (powervm): GPR3..GPR12 plus MSR and NIA for an hcall exit.
        uint8_t out[512];
        b.l1mem.read(out_buf, out, sizeof(out));
        std::vector<gsb_element> elems;
        ASSERT_TRUE(gsb_decode(out, sizeof(out), gsb_request{gsb_op::get}, elems).ok());
        bool saw_gpr3 = false;
        for (const auto& e : elems)
            if (e.id == gsid::GPR3) saw_gpr3 = load_be64(out + e.offset) == papr::H_CEDE;
        EXPECT_TRUE(saw_gpr3);
        EXPECT_EQ(b.get_u64(gsid::NIA), b.l2.nia);  // after the sc, as L0 stored it
        EXPECT_EQ(b.l2_entries, 1u);
        EXPECT_EQ(b.metrics.total(counter::l0_run_vcpu), 1u);
    });
}

TEST(l0_firmware, hdec_expiry_in_the_past_exits_at_once) {
    NESTVP_SC_TEST_GUARD();
    l0_bench b;
    b.in_l1([&] {
        b.create(b.l1_tb() + 10000000);
        const hcall_frame r = b.run(b.l1_tb() - 10);
        EXPECT_EQ(r.r[3], 0u);
        EXPECT_EQ(r.r[4], 0x980u);
        EXPECT_EQ(b.l2_entries, 0u);  // L2 was never entered
        EXPECT_EQ(b.metrics.total(counter::l0_immediate_exits), 1u);
    });
}

TEST(l0_firmware, tb_offsets_add_up_across_levels) {
    NESTVP_SC_TEST_GUARD();
    l0_bench b;
    b.in_l1([&] {
        b.create(b.l1_tb() + 10000000);
        EXPECT_EQ(b.t.mftb() - b.c.tb().ticks(), l1_offset);  // L1 sees host + its offset
        b.run(b.l1_tb() + 1000000);
        ASSERT_EQ(b.l2_tb_minus_host.size(), 1u);
        EXPECT_EQ(static_cast<uint64_t>(b.l2_tb_minus_host[0]), l1_offset + l2_offset);
        EXPECT_EQ(b.t.mftb() - b.c.tb().ticks(), l1_offset);  // restored on return to L1
    });
}

TEST(l0_firmware, dec_expiry_kept_across_runs) {
    NESTVP_SC_TEST_GUARD();
    l0_bench b;
    b.in_l1([&] {
        const uint64_t expiry = b.l1_tb() + 5000000;
        b.create(expiry);
        for (int i = 0; i < 3; ++i) {
            EXPECT_EQ(b.run(b.l1_tb() + 1000000).r[4], 0xC00u);
            EXPECT_EQ(b.get_u64(gsid::DEC_EXPIRY_TB), expiry);  // L2 did not touch its DEC
            sc_core::wait(sc_core::sc_time(100, sc_core::SC_US));
        }
        EXPECT_EQ(b.l2_entries, 3u);
    });
}

TEST(l0_firmware, bad_arguments_get_papr_codes) {
    NESTVP_SC_TEST_GUARD();
    l0_bench b;
    b.in_l1([&] {
        b.create(b.l1_tb() + 10000000);
        const uint64_t limit = b.l1_tb() + 1000000;
        EXPECT_EQ(static_cast<int64_t>(b.run(limit, 1).r[3]), papr::H_PARAMETER);  // flags != 0
        EXPECT_EQ(static_cast<int64_t>(b.run(limit, 0, b.guest + 7).r[3]), papr::H_P2);  // guest
        EXPECT_EQ(static_cast<int64_t>(b.run(limit, 0, b.guest, 5).r[3]), papr::H_P3);   // vCPU
        ASSERT_EQ(b.hcall(papr::H_GUEST_CREATE_VCPU, 0, b.guest, 1).r[3], 0u);
        EXPECT_EQ(static_cast<int64_t>(b.run(limit, 0, b.guest, 1).r[3]),
                  papr::H_INPUT_BUFFER_NOT_DEFINED);  // no buffers registered
        EXPECT_EQ(static_cast<int64_t>(b.hcall(0x1234).r[3]), papr::H_FUNCTION);
        EXPECT_EQ(b.l2_entries, 0u);
    });
}

// A cost is charged with its fraction (models/params.h, cost_param): ten hcalls whose entry
// costs 8.8 cycles take 88 cycles, not 80 (truncated) or 90 (rounded).
TEST(l0_firmware, fractional_cost_is_charged_with_its_fraction) {
    NESTVP_SC_TEST_GUARD();
    l0_costs k = test_costs();
    k.hcall_entry = cost_param{8.8, "test: arithoh's 8.8 cycles an iteration"};
    k.hcall_return = cost_param{0, "test"};
    l0_bench b(k);
    b.in_l1([&] {
        const auto charged = [&b] {
            b.t.settle();  // the cost owed with interrupts off is retired
            return b.t.cycles(hardware_thread::acct_l0) + b.t.cycles(hardware_thread::acct_l1);
        };
        const double before = charged();
        for (int i = 0; i < 10; ++i)
            EXPECT_EQ(static_cast<int64_t>(b.hcall(0x1234).r[3]), papr::H_FUNCTION);
        EXPECT_NEAR(charged() - before, 88.0, 1e-9);
    });
}

// The hcall protocol (models/hcall_protocol.h): the frame and the caller's id travel in the
// extension; a payload without one, or naming a thread that is not bound, is refused without
// touching any thread.
namespace {
struct raw_initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<raw_initiator> socket{"socket"};
    explicit raw_initiator(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {}
    tlm::tlm_response_status send(hcall_extension* ext) {
        tlm::tlm_generic_payload gp;
        gp.set_command(tlm::TLM_WRITE_COMMAND);
        gp.set_address(papr::H_GUEST_GET_CAPABILITIES);
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        if (ext) gp.set_extension(ext);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(gp, delay);
        if (ext) gp.clear_extension(ext);
        return gp.get_response_status();
    }
};
}  // namespace

TEST(l0_firmware, hcall_payload_names_its_thread_by_id) {
    NESTVP_SC_TEST_GUARD();
    l0_bench b;
    raw_initiator raw("raw");
    raw.socket.bind(b.l0_target.socket);
    bool done = false;
    sc_core::sc_spawn([&] {
        EXPECT_EQ(raw.send(nullptr), tlm::TLM_GENERIC_ERROR_RESPONSE);
        hcall_extension unknown;
        unknown.frame.r[3] = papr::H_GUEST_GET_CAPABILITIES;
        unknown.thread_id = 7;  // no thread bound with this id
        EXPECT_EQ(raw.send(&unknown), tlm::TLM_GENERIC_ERROR_RESPONSE);
        EXPECT_EQ(b.metrics.total(counter::l0_hcalls), 0u);
        hcall_extension known;
        known.frame.r[3] = papr::H_GUEST_GET_CAPABILITIES;
        known.thread_id = b.t.id();
        EXPECT_EQ(raw.send(&known), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(known.frame.r[3], 0u);  // H_SUCCESS, capabilities in r4
        EXPECT_NE(known.frame.r[4], 0u);
        done = true;
    });
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    EXPECT_TRUE(done);
}
