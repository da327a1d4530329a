// nestedv1 hv_guest_state: layout offsets of Linux hvcall.h, big-endian, version handling.
#include <gtest/gtest.h>

#include "sw/papr/gsb_codec.h"
#include "sw/papr/hv_guest_state.h"
#include "sw/papr/papr.h"
#include "sw/papr/vector_memory_port.h"

using namespace nestvp;

TEST(HvGuestState, LayoutOffsetsAndBigEndian) {
    hv_guest_state s;
    s.lpid = 0x11223344;
    s.vcpu_token = 7;
    s.lpcr = 0x1;
    s.tb_offset = -0x1000000;
    s.hdec_expiry = 0xAABBCCDD;
    s.sprg[3] = 0x33;
    s.ppr = 0x77;
    s.dawrx1 = 0x99;
    uint8_t b[HV_GUEST_STATE_MAX_SIZE];
    ASSERT_EQ(hv_guest_state_encode(s, b), 248u);
    EXPECT_EQ(load_be64(b + 0), 2u);
    EXPECT_EQ(load_be32(b + 8), 0x11223344u);
    EXPECT_EQ(load_be32(b + 12), 7u);
    EXPECT_EQ(load_be64(b + 16), 1u);
    EXPECT_EQ(load_be64(b + 56), static_cast<uint64_t>(-0x1000000));
    EXPECT_EQ(load_be64(b + 88), 0xAABBCCDDu);
    EXPECT_EQ(load_be64(b + 200), 0x33u);
    EXPECT_EQ(load_be64(b + 224), 0x77u);
    EXPECT_EQ(load_be64(b + 240), 0x99u);
    EXPECT_EQ(b[88 + 7], 0xDD);
    hv_guest_state d;
    ASSERT_TRUE(hv_guest_state_decode(b, sizeof(b), d));
    EXPECT_EQ(d, s);
}

TEST(HvGuestState, ReadWriteThroughMemoryAndVersions) {
    vector_memory_port mem(4096);
    hv_guest_state s;
    s.hdec_expiry = 123456;
    s.tb_offset = 0x2000000;
    ASSERT_EQ(hv_guest_state_write(mem, 0x100, s), papr::H_SUCCESS);
    hv_guest_state r;
    ASSERT_EQ(hv_guest_state_read(mem, 0x100, r), papr::H_SUCCESS);
    EXPECT_EQ(r, s);
    // Version 1 is 232 bytes; dawr1/dawrx1 read as zero.
    s.version = 1;
    s.dawr1 = 5;
    ASSERT_EQ(hv_guest_state_write(mem, 0x400, s), papr::H_SUCCESS);
    ASSERT_EQ(hv_guest_state_read(mem, 0x400, r), papr::H_SUCCESS);
    EXPECT_EQ(r.version, 1u);
    EXPECT_EQ(r.dawr1, 0u);
    EXPECT_EQ(r.hdec_expiry, 123456u);
    // Unknown versions and address errors: H_PARAMETER, output untouched.
    uint8_t v3[8];
    store_be64(v3, 3);
    mem.write(0x800, v3, 8);
    hv_guest_state keep;
    keep.lpid = 42;
    EXPECT_EQ(hv_guest_state_read(mem, 0x800, keep), papr::H_PARAMETER);
    EXPECT_EQ(keep.lpid, 42u);
    store_be64(v3, 0);
    mem.write(0x800, v3, 8);
    EXPECT_EQ(hv_guest_state_read(mem, 0x800, keep), papr::H_PARAMETER);
    EXPECT_EQ(hv_guest_state_read(mem, 4096 - 100, keep), papr::H_PARAMETER);  // runs past end
    s.version = 2;
    EXPECT_EQ(hv_guest_state_write(mem, 4096 - 100, s), papr::H_PARAMETER);
    s.version = 9;
    EXPECT_EQ(hv_guest_state_write(mem, 0, s), papr::H_PARAMETER);
}
