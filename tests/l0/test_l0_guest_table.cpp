// L0 nestedv2 hcalls driven by a scripted L1: capabilities, create, vCPUs, GET/SET, run
// begin/end with the three output policies, delete (nested-virtualization.md §2.5, §5.4, §6).
#include <gtest/gtest.h>

#include "tests/l0/l0_test_l1.h"

using namespace nestvp;
using namespace nestvp::papr;
using nestvp::test::test_l1;

TEST(L0Capabilities, GetReportsModesAndSetIsAllowedOnce) {
    test_l1 t;
    hcall_result r = t.l0.h_guest_get_capabilities(0);
    EXPECT_EQ(r.r3, H_SUCCESS);
    EXPECT_EQ(r.r4, H_GUEST_CAP_POWER9 | H_GUEST_CAP_POWER10);
    EXPECT_EQ(t.l0.h_guest_get_capabilities(1).r3, H_PARAMETER);
    EXPECT_EQ(t.l0.h_guest_set_capabilities(0, H_GUEST_CAP_POWER10).r3, H_SUCCESS);
    EXPECT_TRUE(t.l0.capabilities_set());
    EXPECT_EQ(t.l0.h_guest_set_capabilities(0, H_GUEST_CAP_POWER10).r3, H_STATE);
}

TEST(L0Capabilities, InvalidBitmapsAnswerP2WithIndex) {
    test_l1 t;
    hcall_result r = t.l0.h_guest_set_capabilities(0, H_GUEST_CAP_COPY_MEM);
    EXPECT_EQ(r.r3, H_P2);
    EXPECT_EQ(r.r4, 1u);
    r = t.l0.h_guest_set_capabilities(0, 0);
    EXPECT_EQ(r.r3, H_P2);
    EXPECT_EQ(r.r5, 2u);  // first supported mode: POWER10 (bit 2)
    r = t.l0.h_guest_set_capabilities(0, H_GUEST_CAP_POWER11);  // not offered
    EXPECT_EQ(r.r3, H_P2);
    EXPECT_EQ(r.r5, 3u);
    EXPECT_EQ(t.l0.h_guest_set_capabilities(1, H_GUEST_CAP_POWER9).r3, H_PARAMETER);
    EXPECT_FALSE(t.l0.capabilities_set());
}

TEST(L0Create, NeedsCapabilitiesAndAllocatesLowestFreeId) {
    test_l1 t;
    EXPECT_EQ(t.l0.h_guest_create(0, H_GUEST_CREATE_CONTINUE_NONE).r3, H_STATE);
    t.caps();
    EXPECT_EQ(t.l0.h_guest_create(1, H_GUEST_CREATE_CONTINUE_NONE).r3, H_UNSUPPORTED_FLAG);
    EXPECT_EQ(t.l0.h_guest_create(0, 5).r3, H_P2);
    EXPECT_EQ(t.l0.h_guest_create(0, H_GUEST_CREATE_CONTINUE_NONE).r4, 1u);
    EXPECT_EQ(t.l0.h_guest_create(0, H_GUEST_CREATE_CONTINUE_NONE).r4, 2u);
    EXPECT_EQ(t.l0.h_guest_create(0, H_GUEST_CREATE_CONTINUE_NONE).r4, 3u);
    EXPECT_EQ(t.l0.h_guest_delete(0, 2).r3, H_SUCCESS);
    EXPECT_EQ(t.l0.h_guest_create(0, H_GUEST_CREATE_CONTINUE_NONE).r4, 2u);
}

TEST(L0Create, GuestLimitAnswersNoMem) {
    l0_guest_table::config cfg;
    cfg.max_guests = 3;  // ids 1, 2
    l0_guest_table l0(cfg);
    ASSERT_EQ(l0.h_guest_set_capabilities(0, H_GUEST_CAP_POWER9).r3, 0);
    EXPECT_EQ(l0.h_guest_create(0, H_GUEST_CREATE_CONTINUE_NONE).r4, 1u);
    EXPECT_EQ(l0.h_guest_create(0, H_GUEST_CREATE_CONTINUE_NONE).r4, 2u);
    EXPECT_EQ(l0.h_guest_create(0, H_GUEST_CREATE_CONTINUE_NONE).r3, H_NO_MEM);
    EXPECT_EQ(l0.guest_count(), 2u);
}

TEST(L0CreateVcpu, IdsAreCheckedAndCreatedOnce) {
    test_l1 t;
    t.caps();
    const uint64_t g = t.create_guest();
    EXPECT_EQ(t.l0.h_guest_create_vcpu(0, g, 0).r3, H_SUCCESS);
    EXPECT_EQ(t.l0.h_guest_create_vcpu(0, g, 0).r3, H_IN_USE);
    EXPECT_EQ(t.l0.h_guest_create_vcpu(0, g, 2047).r3, H_SUCCESS);
    EXPECT_EQ(t.l0.h_guest_create_vcpu(0, g, 2048).r3, H_P3);
    EXPECT_EQ(t.l0.h_guest_create_vcpu(0, 99, 1).r3, H_P2);
    EXPECT_EQ(t.l0.h_guest_create_vcpu(1, g, 1).r3, H_UNSUPPORTED_FLAG);
    EXPECT_TRUE(t.l0.vcpu_exists(g, 2047));
    EXPECT_FALSE(t.l0.vcpu_exists(g, 1));
}

TEST(L0State, SetThenGetThreadAndGuestWide) {
    test_l1 t;
    t.caps();
    const uint64_t g = t.create_guest();
    t.create_vcpu(g, 0);
    gsb_builder b;
    b.add_u64(gsid::gpr(5), 0x55).add_u64(gsid::DEC_EXPIRY_TB, 1234).add_u32(gsid::CR, 0x4400);
    hcall_result r = t.set_state(0, g, 0, b);
    EXPECT_EQ(r.r3, H_SUCCESS);
    EXPECT_EQ(r.elements_in, 3u);
    std::vector<uint64_t> out;
    r = t.get_state(0, g, 0, {gsid::gpr(5), gsid::DEC_EXPIRY_TB, gsid::CR, gsid::NIA}, out);
    ASSERT_EQ(r.r3, H_SUCCESS);
    EXPECT_EQ(r.elements_out, 4u);
    EXPECT_EQ(out, (std::vector<uint64_t>{0x55, 1234, 0x4400, 0}));
    // Guest-wide: TB_OFFSET masked to 40 bits (QEMU HVMASK_TB_OFFSET), min output size, PVR.
    gsb_builder w;
    w.add_u64(gsid::TB_OFFSET, 0xFFFF001234000000ull);
    EXPECT_EQ(t.set_state(H_GUEST_FLAGS_WIDE, g, 0, w).r3, H_SUCCESS);
    EXPECT_EQ(t.l0.tb_offset(g), 0x001234000000ull);
    EXPECT_EQ(t.get1(H_GUEST_FLAGS_WIDE, g, 0, gsid::TB_OFFSET), 0x001234000000ull);
    EXPECT_GE(t.get1(H_GUEST_FLAGS_WIDE, g, 0, gsid::RUN_OUTPUT_MIN_SIZE), VCPU_RUN_BUF_MIN_SIZE);
    std::vector<uint64_t> pvr;
    ASSERT_TRUE(t.get_state(H_GUEST_FLAGS_WIDE, g, 0, {gsid::LOGICAL_PVR}, pvr).ok());
    EXPECT_EQ(pvr[0], 0x0f000006u);
    // Masks on thread-wide writes: LPCR and MSR.
    gsb_builder m;
    m.add_u64(gsid::LPCR, ~0ull).add_u64(gsid::MSR, ~0ull);
    EXPECT_EQ(t.set_state(0, g, 0, m).r3, H_SUCCESS);
    EXPECT_EQ(t.l0.vcpu_u64(g, 0, gsid::LPCR), HVMASK_LPCR);
    EXPECT_EQ(t.l0.vcpu_u64(g, 0, gsid::MSR), HVMASK_MSR);
}

TEST(L0State, FlagsGuestAndVcpuAreChecked) {
    test_l1 t;
    t.caps();
    const uint64_t g = t.create_guest();
    t.create_vcpu(g, 0);
    gsb_builder b;
    b.add_u64(gsid::NIA, 1);
    EXPECT_EQ(t.set_state(H_GUEST_FLAGS_HOST_WIDE, g, 0, b).r3, H_PARAMETER);
    EXPECT_EQ(t.set_state(1, g, 0, b).r3, H_PARAMETER);
    EXPECT_EQ(t.set_state(0, g + 1, 0, b).r3, H_P2);
    EXPECT_EQ(t.set_state(0, g, 1, b).r3, H_P3);
    std::vector<uint64_t> out;
    EXPECT_EQ(t.get_state(H_GUEST_FLAGS_WIDE | H_GUEST_FLAGS_HOST_WIDE, g, 0, {gsid::NIA}, out).r3,
              H_PARAMETER);
    // Size argument (r8): below the header or above 1 MiB.
    EXPECT_EQ(t.l0.h_guest_set_state(0, g, 0, test::SCRATCH, 3, t.mem).r3, H_P5);
    EXPECT_EQ(t.l0.h_guest_set_state(0, g, 0, test::SCRATCH, GSB_MAX_BUF_SIZE + 1, t.mem).r3, H_P5);
    // Host-wide GET needs no guest.
    std::vector<uint64_t> heap;
    EXPECT_EQ(t.get_state(H_GUEST_FLAGS_HOST_WIDE, 0, 0, {gsid::L0_GUEST_HEAP}, heap).r3, 0);
    EXPECT_EQ(heap[0], 4096u);  // one vCPU x host_state_size
}

TEST(L0Run, QemuPolicyHcallExitReturnsGpr3To12) {
    test_l1 t;
    t.caps();
    const uint64_t g = t.create_guest();
    t.create_vcpu(g, 0);
    gsb_builder in;
    in.add_u64(gsid::HDEC_EXPIRY_TB, 0x12345678).add_u64(gsid::LPCR, 0x20000);
    hcall_result r = t.run(g, 0, in);
    ASSERT_EQ(r.r3, H_SUCCESS);
    EXPECT_EQ(r.elements_in, 2u);
    EXPECT_EQ(t.l0.vcpu_u64(g, 0, gsid::HDEC_EXPIRY_TB), 0x12345678u);
    EXPECT_EQ(t.l0.vcpu_u64(g, 0, gsid::LPCR), 0x20000u);
    // The machine ran L2; it stores what the hardware produced.
    for (unsigned n = 3; n <= 12; ++n) t.l0.set_u64(g, 0, gsid::gpr(n), 0x100 + n);
    t.l0.set_u64(g, 0, gsid::gpr(3), H_CEDE);
    r = t.l0.end_run(g, 0, EXIT_HCALL, run_output_policy::qemu, t.mem);
    EXPECT_EQ(r.r3, H_SUCCESS);
    EXPECT_EQ(r.r4, EXIT_HCALL);
    EXPECT_EQ(r.elements_out, 10u);
    auto out = t.output(g, 0);
    ASSERT_EQ(out.size(), 10u);
    EXPECT_EQ(out[0], std::make_pair(gsid::gpr(3), H_CEDE));
    EXPECT_EQ(out[9], std::make_pair(gsid::gpr(12), uint64_t{0x10C}));
    // 124 bytes with the header (§6).
    std::vector<uint8_t> raw(4);
    t.mem.read(test_l1::out_buf(g, 0), raw.data(), 4);
    EXPECT_EQ(load_be32(raw.data()), 10u);
}

TEST(L0Run, OutputPerExitVectorAndPolicy) {
    const struct {
        uint64_t vector;
        run_output_policy p;
        std::vector<uint16_t> ids;
    } cases[] = {
        {EXIT_HDSI,
         run_output_policy::qemu,
         {gsid::HDAR, gsid::HDSISR, gsid::ASDR, gsid::NIA, gsid::MSR}},
        {EXIT_HISI, run_output_policy::qemu, {gsid::HDAR, gsid::ASDR, gsid::NIA, gsid::MSR}},
        {EXIT_HEA, run_output_policy::qemu, {gsid::HEIR, gsid::NIA, gsid::MSR}},
        {EXIT_HFAC, run_output_policy::qemu, {gsid::HFSCR, gsid::NIA, gsid::MSR}},
        {EXIT_HDEC, run_output_policy::qemu, {}},
        {EXIT_HVIRT, run_output_policy::powervm, {}},
        {EXIT_HDEC, run_output_policy::powervm_dec_expiry, {gsid::DEC_EXPIRY_TB}},
        {EXIT_HEA, run_output_policy::powervm, {gsid::HEIR, gsid::NIA, gsid::MSR}},
        // get-state-deduction.md §3: NIA and DEC_EXPIRY_TB on every exit reason.
        {EXIT_HDEC, run_output_policy::powervm_deduced, {gsid::NIA, gsid::DEC_EXPIRY_TB}},
        {EXIT_HVIRT, run_output_policy::powervm_deduced, {gsid::NIA, gsid::DEC_EXPIRY_TB}},
        {EXIT_EXTERNAL, run_output_policy::powervm_deduced, {gsid::NIA, gsid::DEC_EXPIRY_TB}},
        {EXIT_HDSI,
         run_output_policy::powervm_deduced,
         {gsid::HDAR, gsid::HDSISR, gsid::ASDR, gsid::NIA, gsid::MSR, gsid::DEC_EXPIRY_TB}},
    };
    for (const auto& c : cases) {
        test_l1 t;
        t.caps();
        const uint64_t g = t.create_guest();
        t.create_vcpu(g, 0);
        ASSERT_EQ(t.run(g, 0, gsb_builder()).r3, H_SUCCESS);
        hcall_result r = t.l0.end_run(g, 0, c.vector, c.p, t.mem);
        ASSERT_EQ(r.r3, H_SUCCESS);
        EXPECT_EQ(r.r4, c.vector);
        std::vector<uint16_t> got;
        for (auto& e : t.output(g, 0)) got.push_back(e.first);
        EXPECT_EQ(got, c.ids) << std::hex << c.vector << " " << to_string(c.p);
    }
    // powervm hcall exits add NIA, MSR (§2.6 inference); -dec-expiry adds DEC_EXPIRY_TB.
    auto pv = run_output_ids(EXIT_HCALL, run_output_policy::powervm);
    ASSERT_EQ(pv.size(), 12u);
    EXPECT_EQ(pv[10], gsid::NIA);
    EXPECT_EQ(pv[11], gsid::MSR);
    auto pd = run_output_ids(EXIT_HCALL, run_output_policy::powervm_dec_expiry);
    ASSERT_EQ(pd.size(), 13u);
    EXPECT_EQ(pd.back(), gsid::DEC_EXPIRY_TB);
    EXPECT_EQ(run_output_ids(EXIT_HCALL, run_output_policy::powervm_deduced), pd);
}

TEST(L0Run, DecExpiryIsKeptAcrossRunsAndReturnedByPowervmDecExpiry) {
    test_l1 t;
    t.caps();
    const uint64_t g = t.create_guest();
    t.create_vcpu(g, 0);
    ASSERT_EQ(t.run(g, 0, gsb_builder()).r3, 0);
    t.l0.set_u64(g, 0, gsid::DEC_EXPIRY_TB, 777000);  // stored on exit (§6)
    ASSERT_EQ(t.l0.end_run(g, 0, EXIT_HDEC, run_output_policy::powervm_dec_expiry, t.mem).r3, 0);
    auto out = t.output(g, 0);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0], std::make_pair(gsid::DEC_EXPIRY_TB, uint64_t{777000}));
    gsb_builder in;
    in.add_u64(gsid::HDEC_EXPIRY_TB, 5);
    ASSERT_EQ(t.run(g, 0, in).r3, 0);
    EXPECT_EQ(t.l0.vcpu_u64(g, 0, gsid::DEC_EXPIRY_TB), 777000u);  // not touched by the run
    EXPECT_EQ(t.get1(0, g, 0, gsid::DEC_EXPIRY_TB), 777000u);
}

TEST(L0Run, BadArgumentsAnswerTheirCodes) {
    test_l1 t;
    t.caps();
    const uint64_t g = t.create_guest();
    t.create_vcpu(g, 0);
    t.create_vcpu(g, 1, false);  // no run buffers
    EXPECT_EQ(t.run(g, 0, gsb_builder(), H_GUEST_RUN_GEN_EXT_INT).r3, H_PARAMETER);
    EXPECT_EQ(t.l0.begin_run(g + 5, 0, 0, t.mem).r3, H_P2);
    EXPECT_EQ(t.l0.begin_run(g, 7, 0, t.mem).r3, H_P3);
    EXPECT_EQ(t.l0.begin_run(g, 1, 0, t.mem).r3, H_INPUT_BUFFER_NOT_DEFINED);
    gsb_builder only_in;
    only_in.add_buffer_info(gsid::RUN_INPUT, test_l1::in_buf(g, 1), 0x1000);
    ASSERT_EQ(t.set_state(0, g, 1, only_in).r3, 0);
    EXPECT_EQ(t.l0.begin_run(g, 1, 0, t.mem).r3, H_OUTPUT_BUFFER_NOT_DEFINED);
    // A guest without a partition table cannot run (QEMU h_guest_run_vcpu).
    const uint64_t g2 = t.l0.h_guest_create(0, H_GUEST_CREATE_CONTINUE_NONE).r4;
    t.create_vcpu(g2, 0);
    EXPECT_EQ(t.l0.begin_run(g2, 0, 0, t.mem).r3, H_PARTITION_PAGE_TABLE_NOT_DEFINED);
    // Unknown opcode through dispatch.
    uint64_t args[6] = {};
    EXPECT_EQ(t.l0.dispatch(H_GUEST_COPY_MEMORY, args, t.mem).r3, H_FUNCTION);
    EXPECT_EQ(t.l0.dispatch(H_GUEST_RUN_VCPU, args, t.mem).r3, H_FUNCTION);
}

TEST(L0Run, OutputBufferTooSmallForPolicy) {
    test_l1 t;
    t.caps();
    const uint64_t g = t.create_guest();
    ASSERT_EQ(t.l0.h_guest_create_vcpu(0, g, 0).r3, 0);
    gsb_builder b;  // QEMU's minimum 0x80 holds the 124-byte qemu hcall output, not powervm's
    b.add_buffer_info(gsid::RUN_INPUT, test_l1::in_buf(g, 0), 0x1000);
    b.add_buffer_info(gsid::RUN_OUTPUT, test_l1::out_buf(g, 0), 0x80);
    ASSERT_EQ(t.set_state(0, g, 0, b).r3, 0);
    ASSERT_EQ(t.run(g, 0, gsb_builder()).r3, 0);
    EXPECT_EQ(t.l0.end_run(g, 0, EXIT_HCALL, run_output_policy::qemu, t.mem).r3, H_SUCCESS);
    ASSERT_EQ(t.run(g, 0, gsb_builder()).r3, 0);
    EXPECT_EQ(t.l0.end_run(g, 0, EXIT_HCALL, run_output_policy::powervm, t.mem).r3,
              H_OUTPUT_BUFFER_TOO_SMALL);
    EXPECT_GE(t.get1(H_GUEST_FLAGS_WIDE, g, 0, gsid::RUN_OUTPUT_MIN_SIZE), 160u);
}

TEST(L0Delete, OneGuestOrAll) {
    test_l1 t;
    t.caps();
    const uint64_t a = t.create_guest(), b = t.create_guest();
    EXPECT_EQ(t.l0.h_guest_delete(2, a).r3, H_UNSUPPORTED_FLAG);
    EXPECT_EQ(t.l0.h_guest_delete(0, 77).r3, H_P2);
    EXPECT_EQ(t.l0.h_guest_delete(0, a).r3, H_SUCCESS);
    EXPECT_FALSE(t.l0.guest_exists(a));
    EXPECT_TRUE(t.l0.guest_exists(b));
    t.create_guest();
    EXPECT_EQ(t.l0.h_guest_delete(H_GUEST_DELETE_ALL_FLAG, 12345).r3, H_SUCCESS);
    EXPECT_EQ(t.l0.guest_count(), 0u);
}

TEST(L0Dispatch, RoutesArgumentsR4ToR9) {
    test_l1 t;
    uint64_t a[6] = {0, H_GUEST_CAP_POWER9};
    EXPECT_EQ(t.l0.dispatch(H_GUEST_SET_CAPABILITIES, a, t.mem).r3, 0);
    uint64_t c[6] = {0, H_GUEST_CREATE_CONTINUE_NONE};
    const uint64_t g = t.l0.dispatch(H_GUEST_CREATE, c, t.mem).r4;
    uint64_t v[6] = {0, g, 3};
    EXPECT_EQ(t.l0.dispatch(H_GUEST_CREATE_VCPU, v, t.mem).r3, 0);
    gsb_builder b;
    b.add_u64(gsid::NIA, 0xABC);
    t.mem.write(test::SCRATCH, b.bytes().data(), b.size());
    uint64_t s[6] = {0, g, 3, test::SCRATCH, b.size()};
    EXPECT_EQ(t.l0.dispatch(H_GUEST_SET_STATE, s, t.mem).r3, 0);
    EXPECT_EQ(t.l0.vcpu_u64(g, 3, gsid::NIA), 0xABCu);
    EXPECT_TRUE(l0_guest_table::handles(H_GUEST_DELETE));
    EXPECT_FALSE(l0_guest_table::handles(H_GUEST_RUN_VCPU));
    run_output_policy p;
    EXPECT_TRUE(parse_run_output_policy("powervm-dec-expiry", p));
    EXPECT_EQ(p, run_output_policy::powervm_dec_expiry);
    EXPECT_TRUE(parse_run_output_policy("powervm-deduced", p));
    EXPECT_EQ(p, run_output_policy::powervm_deduced);
    EXPECT_FALSE(parse_run_output_policy("phyp", p));
}

TEST(L0State, LargeDeclaredBufferReadsOnlyItsUsedPart) {
    test_l1 t;
    t.caps();
    const uint64_t g = t.create_guest();
    t.create_vcpu(g, 0);
    gsb_builder b;
    b.add_u64(gsid::SRR0, 0x5151);
    ASSERT_TRUE(t.mem.write(test::SCRATCH, b.bytes().data(), b.size()));
    // Bytes past the used part are garbage that must not be interpreted.
    std::vector<uint8_t> junk(0x1000, 0xFF);
    ASSERT_TRUE(t.mem.write(test::SCRATCH + b.size(), junk.data(), junk.size()));
    const uint64_t reads = t.mem.reads();
    EXPECT_EQ(t.l0.h_guest_set_state(0, g, 0, test::SCRATCH, 0xF0000, t.mem).r3, H_SUCCESS);
    EXPECT_EQ(t.l0.vcpu_u64(g, 0, gsid::SRR0), 0x5151u);
    EXPECT_LE(t.mem.reads() - reads, 2u);  // last-byte probe + one small read
    // Declared size running past the end of guest memory is refused even if the content fits.
    EXPECT_EQ(t.l0.h_guest_set_state(0, g, 0, test::SCRATCH, test::MEM_SIZE, t.mem).r3, H_P4);
}
