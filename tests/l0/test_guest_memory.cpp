// guest_memory + tlm_memory_port over TLM-2.0: b_transport, DMI, address errors, latency, and
// L0 moving GSBs through TLM. One SystemC simulation per TEST.
#include <gtest/gtest.h>

#include <functional>

#include "models/guest_memory.h"
#include "models/tlm_memory_port.h"
#include "sc_test_guard.h"
#include "sw/l0/l0_guest_table.h"
#include "sw/papr/gsb_codec.h"

using namespace nestvp;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

struct bench : sc_core::sc_module {
    guest_memory mem;
    tlm_memory_port port;
    std::function<void(bench&)> body;
    bool done = false;
    SC_HAS_PROCESS(bench);
    bench(const sc_core::sc_module_name& name, uint64_t size, bool dmi, bool port_dmi,
          std::function<void(bench&)> f)
        : sc_core::sc_module(name),
          mem("mem", size, sc_time(10, SC_NS), dmi),
          port("port", port_dmi),
          body(std::move(f)) {
        port.socket.bind(mem.socket);
        SC_THREAD(run);
    }
    void run() {
        body(*this);
        done = true;
    }
};

void simulate(uint64_t size, bool dmi, bool port_dmi, std::function<void(bench&)> f) {
    bench b("bench", size, dmi, port_dmi, std::move(f));
    sc_core::sc_start();
    EXPECT_TRUE(b.done);
}

}  // namespace

TEST(GuestMemory, BTransportRoundTripLatencyAndAddressError) {
    NESTVP_SC_TEST_GUARD();
    simulate(4096, false, true, [](bench& b) {
        const uint8_t w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        uint8_t r[8] = {};
        EXPECT_TRUE(b.port.write(0x100, w, 8));
        EXPECT_TRUE(b.port.read(0x100, r, 8));
        EXPECT_EQ(0, memcmp(w, r, 8));
        EXPECT_EQ(b.port.pending_delay(), sc_time(20, SC_NS));
        EXPECT_EQ(b.port.take_delay(), sc_time(20, SC_NS));
        EXPECT_EQ(b.port.pending_delay(), sc_core::SC_ZERO_TIME);
        // Past the end: refused, nothing written, no delay charged.
        EXPECT_FALSE(b.port.write(4096 - 4, w, 8));
        EXPECT_FALSE(b.port.read(4096, r, 1));
        EXPECT_FALSE(b.port.read(~0ull - 2, r, 8));  // wraps
        uint8_t tail[4] = {9, 9, 9, 9};
        ASSERT_TRUE(b.mem.peek(4096 - 4, tail, 4));
        EXPECT_EQ(tail[0], 0);
        EXPECT_EQ(b.port.pending_delay(), sc_core::SC_ZERO_TIME);
        EXPECT_TRUE(b.port.read(4095, r, 1));  // last byte is fine
        EXPECT_FALSE(b.port.has_dmi());
        EXPECT_EQ(b.port.dmi_accesses(), 0u);
        EXPECT_EQ(b.mem.dmi_grants(), 0u);
        EXPECT_GE(b.port.transport_calls(), 5u);
    });
}

TEST(GuestMemory, DmiIsUsedWhenGrantedAndDroppedOnInvalidate) {
    NESTVP_SC_TEST_GUARD();
    simulate(8192, true, true, [](bench& b) {
        uint64_t v = 0x1122334455667788ull, r = 0;
        EXPECT_TRUE(b.port.write(0x40, &v, 8));  // b_transport, then DMI granted
        EXPECT_TRUE(b.port.has_dmi());
        EXPECT_EQ(b.mem.dmi_grants(), 1u);
        const uint64_t calls = b.port.transport_calls();
        EXPECT_TRUE(b.port.read(0x40, &r, 8));
        EXPECT_EQ(r, v);
        EXPECT_EQ(b.port.transport_calls(), calls);  // served by DMI
        EXPECT_EQ(b.port.dmi_accesses(), 1u);
        EXPECT_EQ(b.port.pending_delay(), sc_time(20, SC_NS));  // DMI latency still charged
        EXPECT_FALSE(b.port.read(8192 - 4, &r, 8));  // outside the DMI region: address error
        b.mem.set_dmi_allowed(false);                // invalidates the pointer
        EXPECT_FALSE(b.port.has_dmi());
        EXPECT_TRUE(b.port.read(0x40, &r, 8));
        EXPECT_EQ(b.port.transport_calls(), calls + 2);
    });
}

TEST(GuestMemory, L0MovesGuestStateBuffersThroughTlm) {
    NESTVP_SC_TEST_GUARD();
    simulate(1 << 20, true, true, [](bench& b) {
        l0_guest_table l0;
        ASSERT_TRUE(l0.h_guest_set_capabilities(0, papr::H_GUEST_CAP_POWER10).ok());
        const uint64_t g = l0.h_guest_create(0, papr::H_GUEST_CREATE_CONTINUE_NONE).r4;
        ASSERT_TRUE(l0.h_guest_create_vcpu(0, g, 0).ok());
        gsb_builder s;  // the L1 writes its buffer into guest memory (backdoor: L1 side)
        uint8_t pt[24];
        store_be64(pt, 0x10000);
        store_be64(pt + 8, 52);
        store_be64(pt + 16, 1 << 16);
        s.add(gsid::PARTITION_TABLE, pt, 24);
        ASSERT_TRUE(b.mem.poke(0x1000, s.bytes().data(), s.size()));
        ASSERT_TRUE(
            l0.h_guest_set_state(papr::H_GUEST_FLAGS_WIDE, g, 0, 0x1000, s.size(), b.port).ok());
        gsb_builder bufs;
        bufs.add_buffer_info(gsid::RUN_INPUT, 0x4000, 0x1000);
        bufs.add_buffer_info(gsid::RUN_OUTPUT, 0x8000, 0x1000);
        ASSERT_TRUE(b.mem.poke(0x1000, bufs.bytes().data(), bufs.size()));
        ASSERT_TRUE(l0.h_guest_set_state(0, g, 0, 0x1000, bufs.size(), b.port).ok());
        gsb_builder in;
        in.add_u64(gsid::HDEC_EXPIRY_TB, 0x12345678).add_u64(gsid::LPCR, 0x20000);
        ASSERT_TRUE(b.mem.poke(0x4000, in.bytes().data(), in.size()));
        ASSERT_TRUE(l0.begin_run(g, 0, 0, b.port).ok());
        EXPECT_EQ(l0.vcpu_u64(g, 0, gsid::HDEC_EXPIRY_TB), 0x12345678u);
        l0.set_u64(g, 0, gsid::HDAR, 0xDA7A);
        hcall_result r = l0.end_run(g, 0, papr::EXIT_HDSI, run_output_policy::qemu, b.port);
        ASSERT_TRUE(r.ok());
        EXPECT_EQ(r.elements_out, 5u);
        uint8_t out[64];
        ASSERT_TRUE(b.mem.peek(0x8000, out, sizeof(out)));
        EXPECT_EQ(load_be32(out), 5u);
        EXPECT_EQ(load_be16(out + 4), gsid::HDAR);
        EXPECT_EQ(load_be64(out + 8), 0xDA7Au);
        EXPECT_GT(b.port.pending_delay(), sc_core::SC_ZERO_TIME);  // every access was timed
        // A buffer past the end of guest memory is refused through TLM too.
        EXPECT_EQ(l0.h_guest_get_state(0, g, 0, (1 << 20) - 8, 64, b.port).r3, papr::H_P4);
    });
}

TEST(GuestMemory, ProtocolErrorsAndDebugTransport) {
    NESTVP_SC_TEST_GUARD();
    simulate(256, true, true, [](bench& b) {
        uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        auto setup = [&](tlm::tlm_generic_payload& p, tlm::tlm_command cmd, uint64_t addr,
                         unsigned len) {
            p.set_command(cmd);
            p.set_address(addr);
            p.set_data_ptr(data);
            p.set_data_length(len);
            p.set_streaming_width(len);
            p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        };
        sc_time delay = sc_core::SC_ZERO_TIME;
        tlm::tlm_generic_payload be;
        setup(be, tlm::TLM_WRITE_COMMAND, 0, 8);
        uint8_t enables[8] = {0xFF};
        be.set_byte_enable_ptr(enables);
        be.set_byte_enable_length(8);
        b.port.socket->b_transport(be, delay);
        EXPECT_EQ(be.get_response_status(), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        tlm::tlm_generic_payload burst;
        setup(burst, tlm::TLM_READ_COMMAND, 0, 8);
        burst.set_streaming_width(4);
        b.port.socket->b_transport(burst, delay);
        EXPECT_EQ(burst.get_response_status(), tlm::TLM_BURST_ERROR_RESPONSE);
        tlm::tlm_generic_payload past;
        setup(past, tlm::TLM_READ_COMMAND, 252, 8);
        b.port.socket->b_transport(past, delay);
        EXPECT_EQ(past.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(delay, sc_core::SC_ZERO_TIME);  // failed accesses take no time
        uint8_t before[8];
        ASSERT_TRUE(b.mem.peek(0, before, 8));
        EXPECT_EQ(before[0], 0);  // the refused write moved nothing
        // Debug transport: untimed, bounds-checked.
        tlm::tlm_generic_payload dw;
        setup(dw, tlm::TLM_WRITE_COMMAND, 16, 8);
        EXPECT_EQ(b.port.socket->transport_dbg(dw), 8u);
        uint8_t back[8] = {};
        ASSERT_TRUE(b.mem.peek(16, back, 8));
        EXPECT_EQ(back[7], 8);
        tlm::tlm_generic_payload dpast;
        setup(dpast, tlm::TLM_READ_COMMAND, 250, 8);
        EXPECT_EQ(b.port.socket->transport_dbg(dpast), 0u);
        // DMI is refused for an address outside the memory.
        tlm::tlm_generic_payload q;
        setup(q, tlm::TLM_READ_COMMAND, 4096, 1);
        tlm::tlm_dmi dmi;
        EXPECT_FALSE(b.port.socket->get_direct_mem_ptr(q, dmi));
    });
}
