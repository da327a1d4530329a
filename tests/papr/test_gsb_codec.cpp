// GSB codec: §5.1 worked example, round trips of every ID, each rejection rule with its code and
// index, and the scope table of §5.2.
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "sw/papr/gsb_codec.h"
#include "sw/papr/gsb_ids.h"
#include "sw/papr/papr.h"

using namespace nestvp;
using namespace nestvp::papr;

namespace {

gsb_request set_req(bool wide = false) {
    return {gsb_op::set, wide, false};
}
gsb_request get_req(bool wide = false, bool host = false) {
    return {gsb_op::get, wide, host};
}

gsb_request request_for(const gsb_id_info& info, gsb_op op) {
    gsb_request r;
    r.op = op;
    r.guest_wide = info.scope == gsb_scope::guest_wide;
    r.host_wide = info.scope == gsb_scope::host_wide;
    return r;
}

}  // namespace

TEST(GsbCodec, WorkedExampleByteForByte) {
    // §5.1: HDEC expiry 0x12345678 and LPCR 0x20000 in a run-input buffer (28 bytes).
    gsb_builder b;
    b.add_u64(gsid::HDEC_EXPIRY_TB, 0x12345678).add_u64(gsid::LPCR, 0x20000);
    const std::vector<uint8_t> expect = {0x00, 0x00, 0x00, 0x02, 0x10, 0x20, 0x00, 0x08, 0x00, 0x00,
                                         0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x10, 0x2C, 0x00, 0x08,
                                         0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00};
    EXPECT_EQ(b.bytes(), expect);
    std::vector<gsb_element> out;
    const gsb_status st = gsb_decode(expect.data(), expect.size(), set_req(), out);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].id, gsid::HDEC_EXPIRY_TB);
    EXPECT_EQ(load_be64(expect.data() + out[0].offset), 0x12345678u);
    EXPECT_EQ(out[1].id, gsid::LPCR);
    EXPECT_EQ(load_be64(expect.data() + out[1].offset), 0x20000u);
}

TEST(GsbIds, TableCoversEveryDocumentedId) {
    // §5.2/§5.3 ranges: 7 guest-wide, 5 host-wide, 3 meta, 0x1000-0x1053, 0x2000-0x200E,
    // 0x3000-0x303F, 0xF000-0xF003.
    EXPECT_EQ(gsb_all_ids().size(), 7u + 5 + 3 + 0x54 + 0xF + 0x40 + 4);
    for (uint16_t id = 0x1000; id <= 0x1053; ++id) EXPECT_EQ(gsb_find_id(id)->size, 8) << id;
    for (uint16_t id = 0x2000; id <= 0x200E; ++id) EXPECT_EQ(gsb_find_id(id)->size, 4) << id;
    for (uint16_t id = 0x3000; id <= 0x303F; ++id) EXPECT_EQ(gsb_find_id(id)->size, 16) << id;
    EXPECT_EQ(gsb_find_id(gsid::PARTITION_TABLE)->size, 24);
    EXPECT_EQ(gsb_find_id(gsid::PROCESS_TABLE)->size, 16);
    EXPECT_EQ(gsb_find_id(gsid::LOGICAL_PVR)->size, 4);
    EXPECT_EQ(gsb_find_id(gsid::HEIR)->size, GSB_HEIR_SIZE);
    EXPECT_EQ(gsb_find_id(gsid::HDSISR)->size, 4);
    EXPECT_TRUE(gsb_find_id(gsid::HOST_STATE_SIZE)->read_only);
    EXPECT_TRUE(gsb_find_id(gsid::RUN_OUTPUT_MIN_SIZE)->read_only);
    EXPECT_TRUE(gsb_find_id(gsid::ASDR)->read_only);
    EXPECT_FALSE(gsb_find_id(gsid::HDEC_EXPIRY_TB)->read_only);
    EXPECT_EQ(gsb_find_id(gsid::TB_OFFSET)->scope, gsb_scope::guest_wide);
    EXPECT_EQ(gsb_find_id(gsid::RUN_INPUT)->scope, gsb_scope::meta);
    EXPECT_EQ(gsb_find_id(gsid::L0_GUEST_HEAP)->scope, gsb_scope::host_wide);
    EXPECT_EQ(gsb_find_id(0x1054), nullptr);
    EXPECT_EQ(gsb_find_id(0x0007), nullptr);
    EXPECT_EQ(gsb_find_id(0xF004), nullptr);
    EXPECT_STREQ(gsb_find_id(gsid::DEC_EXPIRY_TB)->name, "DEC_EXPIRY_TB");
    EXPECT_STREQ(gsb_find_id(gsid::DPDES)->name, "DPDES");
    EXPECT_STREQ(gsb_find_id(gsid::PSPB)->name, "PSPB");
    EXPECT_STREQ(gsb_find_id(gsid::gpr(7))->name, "GPR(7)");
    std::set<std::string> names;
    for (const auto& i : gsb_all_ids()) EXPECT_TRUE(names.insert(i.name).second) << i.name;
}

TEST(GsbCodec, RoundTripOfEveryId) {
    for (const gsb_id_info& info : gsb_all_ids()) {
        if (info.id == gsid::BLANK) continue;
        std::vector<uint8_t> value(info.size);
        for (size_t k = 0; k < value.size(); ++k) value[k] = static_cast<uint8_t>(info.id * 7 + k);
        gsb_builder b;
        b.add(info.id, value.data(), value.size());
        ASSERT_EQ(b.size(), GSB_HEADER_SIZE + GSB_ELEMENT_HEADER_SIZE + info.size);
        EXPECT_EQ(load_be16(b.bytes().data() + 4), info.id);
        EXPECT_EQ(load_be16(b.bytes().data() + 6), info.size);
        // GET for every ID; SET for the writable ones, each with its scope's flags.
        for (gsb_op op : {gsb_op::get, gsb_op::set}) {
            if (op == gsb_op::set && info.read_only) continue;
            std::vector<gsb_element> out;
            const gsb_status st =
                gsb_decode(b.bytes().data(), b.size(), request_for(info, op), out);
            ASSERT_TRUE(st.ok()) << gsb_id_string(info.id) << ": " << st.message;
            ASSERT_EQ(out.size(), 1u);
            EXPECT_EQ(out[0].id, info.id);
            EXPECT_EQ(0, std::memcmp(b.bytes().data() + out[0].offset, value.data(), info.size));
        }
    }
}

TEST(GsbCodec, ScalarsAreBigEndianAndVsrHighFirst) {
    gsb_builder b;
    b.add_u32(gsid::CR, 0x11223344).add_vsr(5, 0x0102030405060708ull, 0x1112131415161718ull);
    const auto& v = b.bytes();
    EXPECT_EQ(v[8], 0x11);
    EXPECT_EQ(v[11], 0x44);
    EXPECT_EQ(load_be16(&v[12]), gsid::vsr(5));
    EXPECT_EQ(load_be64(&v[16]), 0x0102030405060708ull);
    EXPECT_EQ(load_be64(&v[24]), 0x1112131415161718ull);
    EXPECT_THROW(b.add_u64(0x7777, 1), std::invalid_argument);
    EXPECT_THROW(b.add(gsid::LPCR, v.data(), 4), std::invalid_argument);
}

TEST(GsbCodec, RejectsBufferWithoutHeader) {
    const uint8_t buf[3] = {0, 0, 0};
    std::vector<gsb_element> out;
    EXPECT_EQ(gsb_decode(buf, 3, set_req(), out).rc, H_PARAMETER);
    EXPECT_EQ(gsb_decode(nullptr, 0, set_req(), out).rc, H_PARAMETER);
}

TEST(GsbCodec, EmptyBufferAndTrailingCapacityAreAccepted) {
    gsb_builder b;
    std::vector<uint8_t> buf = b.bytes();
    buf.resize(256, 0xAA);  // Linux passes the whole allocation (§5.1)
    std::vector<gsb_element> out;
    EXPECT_TRUE(gsb_decode(buf.data(), buf.size(), set_req(), out).ok());
    EXPECT_TRUE(out.empty());
}

TEST(GsbCodec, CountLargerThanBufferIsRejectedWithoutOverrun) {
    gsb_builder b;
    b.add_u64(gsid::NIA, 1).add_u64(gsid::MSR, 2);
    b.set_count(3);                         // one more than present
    std::vector<uint8_t> exact(b.bytes());  // vector of exactly this size: ASan catches overruns
    std::vector<gsb_element> out;
    gsb_status st = gsb_decode(exact.data(), exact.size(), set_req(), out);
    EXPECT_EQ(st.rc, H_INVALID_ELEMENT_SIZE);
    EXPECT_EQ(st.index, 2u);
    b.set_count(0xFFFFFFFFu);
    std::vector<uint8_t> huge(b.bytes());
    st = gsb_decode(huge.data(), huge.size(), set_req(), out);
    EXPECT_EQ(st.rc, H_INVALID_ELEMENT_SIZE);
    EXPECT_EQ(st.index, 2u);
}

TEST(GsbCodec, TruncatedElementValueIsRejected) {
    gsb_builder b;
    b.add_u64(gsid::NIA, 1).add_u64(gsid::MSR, 2);
    std::vector<uint8_t> cut(b.bytes().begin(), b.bytes().end() - 3);
    std::vector<gsb_element> out;
    const gsb_status st = gsb_decode(cut.data(), cut.size(), set_req(), out);
    EXPECT_EQ(st.rc, H_INVALID_ELEMENT_SIZE);
    EXPECT_EQ(st.index, 1u);
    // A header cut in the middle (2 of 4 bytes).
    std::vector<uint8_t> cut2(b.bytes().begin(), b.bytes().begin() + 4 + 12 + 2);
    const gsb_status st2 = gsb_decode(cut2.data(), cut2.size(), set_req(), out);
    EXPECT_EQ(st2.rc, H_INVALID_ELEMENT_SIZE);
    EXPECT_EQ(st2.index, 1u);
}

TEST(GsbCodec, UnknownIdIsRejectedWithIndex) {
    gsb_builder b;
    const uint64_t z = 0;
    b.add_u64(gsid::NIA, 1).add_u64(gsid::MSR, 2).add_raw(0x1054, 8, &z);
    std::vector<gsb_element> out;
    const gsb_status st = gsb_decode(b.bytes().data(), b.size(), set_req(), out);
    EXPECT_EQ(st.rc, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(st.index, 2u);
    EXPECT_NE(st.message.find("0x1054"), std::string::npos) << st.message;
}

TEST(GsbCodec, SizeMismatchIsRejectedWithIndex) {
    gsb_builder b;
    const uint64_t z = 0;
    b.add_u64(gsid::NIA, 1).add_raw(gsid::LPCR, 4, &z);
    std::vector<gsb_element> out;
    const gsb_status st = gsb_decode(b.bytes().data(), b.size(), set_req(), out);
    EXPECT_EQ(st.rc, H_INVALID_ELEMENT_SIZE);
    EXPECT_EQ(st.index, 1u);
    gsb_builder h;  // HEIR with Linux's 8-byte size: rejected by our 4-byte table
    h.add_raw(gsid::HEIR, 8, &z);
    EXPECT_EQ(gsb_decode(h.bytes().data(), h.size(), get_req(), out).rc, H_INVALID_ELEMENT_SIZE);
}

TEST(GsbCodec, ReadOnlyWriteIsRejectedOnSetOnly) {
    gsb_builder b;
    b.add_u64(gsid::NIA, 1).add_u64(gsid::HDAR, 2);
    std::vector<gsb_element> out;
    const gsb_status st = gsb_decode(b.bytes().data(), b.size(), set_req(), out);
    EXPECT_EQ(st.rc, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(st.index, 1u);
    EXPECT_TRUE(gsb_decode(b.bytes().data(), b.size(), get_req(), out).ok());
    gsb_builder g;
    g.add_u64(gsid::RUN_OUTPUT_MIN_SIZE, 0);
    const gsb_status sg = gsb_decode(g.bytes().data(), g.size(), set_req(true), out);
    EXPECT_EQ(sg.rc, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(sg.index, 0u);
}

TEST(GsbCodec, ScopeMismatchesAreRejected) {
    std::vector<gsb_element> out;
    // Guest-wide ID in a thread-wide request.
    gsb_builder a;
    a.add_u64(gsid::NIA, 1).add_u64(gsid::TB_OFFSET, 5);
    gsb_status st = gsb_decode(a.bytes().data(), a.size(), set_req(false), out);
    EXPECT_EQ(st.rc, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(st.index, 1u);
    // Thread-wide ID (and meta ID) in a guest-wide request.
    gsb_builder t;
    t.add_u64(gsid::TB_OFFSET, 5).add_buffer_info(gsid::RUN_INPUT, 0x1000, 0x1000);
    st = gsb_decode(t.bytes().data(), t.size(), set_req(true), out);
    EXPECT_EQ(st.rc, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(st.index, 1u);
    // Host-wide ID without the host-wide flag, and guest-wide ID in a host-wide request.
    gsb_builder h;
    h.add_request(gsid::L0_GUEST_HEAP);
    EXPECT_EQ(gsb_decode(h.bytes().data(), h.size(), get_req(true), out).rc, H_INVALID_ELEMENT_ID);
    EXPECT_TRUE(gsb_decode(h.bytes().data(), h.size(), get_req(false, true), out).ok());
    gsb_builder hg;
    hg.add_request(gsid::L0_GUEST_HEAP).add_request(gsid::TB_OFFSET);
    st = gsb_decode(hg.bytes().data(), hg.size(), get_req(false, true), out);
    EXPECT_EQ(st.rc, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(st.index, 1u);
}

TEST(GsbCodec, BlankElementsOfAnyLengthAreSkipped) {
    gsb_builder b;
    const uint8_t junk[5] = {1, 2, 3, 4, 5};
    b.add_raw(gsid::BLANK, 5, junk).add_u64(gsid::NIA, 9);
    std::vector<gsb_element> out;
    const gsb_status st = gsb_decode(b.bytes().data(), b.size(), set_req(true), out);
    // BLANK is skipped before the scope check; NIA then fails the guest-wide request at index 1.
    EXPECT_EQ(st.rc, H_INVALID_ELEMENT_ID);
    EXPECT_EQ(st.index, 1u);
    ASSERT_TRUE(gsb_decode(b.bytes().data(), b.size(), set_req(false), out).ok());
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].index, 1u);
}

TEST(GsbCodec, WriteMasksFollowQemu) {
    EXPECT_EQ(gsb_mask_value(gsid::LPCR, ~0ull), HVMASK_LPCR);
    EXPECT_EQ(gsb_mask_value(gsid::MSR, ~0ull), HVMASK_MSR);
    EXPECT_EQ(gsb_mask_value(gsid::TB_OFFSET, ~0ull), 0x000000FFFFFFFFFFull);
    EXPECT_EQ(gsb_mask_value(gsid::HDEXCR, ~0ull), 0xFFFFFFFFull);
    EXPECT_EQ(gsb_mask_value(gsid::NIA, ~0ull), ~0ull);
    // LPCR[MER] (bit 52 = 0x800) and LPCR[LD] (bit 46 = 0x20000) survive (§3.5).
    EXPECT_EQ(gsb_mask_value(gsid::LPCR, 0x20800), 0x20800u);
}

TEST(Papr, ReturnCodesMatchHvcallH) {
    EXPECT_EQ(H_PARAMETER, -4);
    EXPECT_EQ(H_P2, -55);
    EXPECT_EQ(H_P9, -62);
    EXPECT_EQ(H_STATE, -75);
    EXPECT_EQ(H_INVALID_ELEMENT_ID, -79);
    EXPECT_EQ(H_INVALID_ELEMENT_SIZE, -80);
    EXPECT_EQ(H_INVALID_ELEMENT_VALUE, -81);
    EXPECT_EQ(H_GUEST_FLAGS_WIDE, 0x8000000000000000ull);
    EXPECT_EQ(H_GUEST_CAP_POWER10, 0x2000000000000000ull);
    EXPECT_STREQ(hcall_name(H_GUEST_RUN_VCPU), "H_GUEST_RUN_VCPU");
    EXPECT_EQ(hcall_name(0x12345), nullptr);
}

// Reports carry a code's name with its number; unnamed codes keep the number alone.
TEST(GsbCodec, CodesHaveLabels) {
    EXPECT_EQ(exit_label(EXIT_HDEC), "0x980 HDEC");
    EXPECT_EQ(exit_label(EXIT_HCALL), "0xc00 hcall");
    EXPECT_EQ(exit_label(0x123), "0x123");
    EXPECT_EQ(hcall_label(H_GUEST_RUN_VCPU), "H_GUEST_RUN_VCPU (0x480)");
    EXPECT_EQ(hcall_label(H_CEDE), "H_CEDE (0xe0)");
    EXPECT_EQ(hcall_label(0x12345), "0x12345");
}

TEST(GsbCodec, ExtentCoversExactlyTheElements) {
    gsb_builder b;
    b.add_u64(gsid::NIA, 1).add_u32(gsid::CR, 2).add_vsr(0, 3, 4);
    std::vector<uint8_t> big(b.bytes());
    big.resize(4096, 0xEE);
    EXPECT_EQ(gsb_extent(big.data(), big.size()), b.size());
    EXPECT_EQ(gsb_extent(big.data(), b.size()), b.size());
    EXPECT_EQ(gsb_extent(big.data(), b.size() - 1), 0u);  // needs more bytes
    EXPECT_EQ(gsb_extent(big.data(), 3), 0u);
    b.set_count(0xFFFFFFFFu);
    EXPECT_EQ(gsb_extent(b.bytes().data(), b.size()), 0u);
    gsb_builder e;
    EXPECT_EQ(gsb_extent(e.bytes().data(), e.size()), 4u);
}
