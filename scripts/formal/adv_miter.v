// adv_miter: one clock with adv=N equals N clocks with adv=1 (docs/rtl-decrementer.md, "Bulk
// time steps"; timer-facilities.md §2.1, §3, §7.2), proven by `make formal` by k-induction for
// every N in 1 .. 2^64-1 from any equal state.
//
// Two instances of the unit with one width strap (any constant 32..64) start in the same
// arbitrary state with bits 63:W clear (p_bits_above_width_zero: every state reached from
// reset is one of them); no reset follows. Time runs in steps of N clocks, N in 1 .. 2^64-1
// chosen freely at the start of each step, with LPCR, the write data and the strobes held for
// the step:
// * `one` sees N-1 idle clocks (adv=0, no strobe) and then one clock with adv=N and every
//   strobe of the step;
// * `many` sees N clocks with adv=1: hdec_ack in the first, the writes and pm_enter in the
//   last (the write takes the place of the N-th tick, set wins over the ack).
// p_adv_n_equals_n_clocks_of_one: at every step boundary the registers and all nine outputs of
// the two agree. It is not inductive on its own (inside a step the two differ), so the a_*
// assertions below are proven with it: inside a step, p clocks done, `one` still holds the
// state S of the step's start and `many` holds S advanced by p ticks (the ack applied), and the
// step counter stays inside the step. With them the conjunction is inductive at depth 1: each
// clock is one application of the unit's next-state function, and no step is ever unrolled,
// which is why N is not bounded.
`default_nettype none

module adv_miter (
    input wire        clk,
    input wire [63:0] n_in,
    input wire        wr_dec_in,
    input wire [63:0] dec_wdata_in,
    input wire        wr_hdec_in,
    input wire [63:0] hdec_wdata_in,
    input wire        lpcr_ld_in,
    input wire        lpcr_hdice_in,
    input wire        hdec_ack_in,
    input wire        pm_enter_in
);
    (* anyconst *) reg [6:0] strap;
    always @(*) assume (strap >= 7'd32 && strap <= 7'd64);
    // Bits W-1:0, written independently of the unit's masks.
    wire [63:0] wm = ~64'd0 >> (7'd64 - strap);

    // Position in the step: pos_q clocks of it are done; 0 starts a new step.
    reg [63:0] pos_q, n_q;
    initial pos_q = 64'd0;
    reg        wr_dec_q, wr_hdec_q, ld_q, hdice_q, ack_q, pm_q;
    reg [63:0] dwd_q, hwd_q;
    wire       start = pos_q == 64'd0;
    always @(*) if (start) assume (n_in != 64'd0);
    wire [63:0] n = start ? n_in : n_q;
    wire       last = pos_q + 64'd1 == n;
    wire       wr_dec = start ? wr_dec_in : wr_dec_q;
    wire       wr_hdec = start ? wr_hdec_in : wr_hdec_q;
    wire       ld = start ? lpcr_ld_in : ld_q;
    wire       hdice = start ? lpcr_hdice_in : hdice_q;
    wire       ack = start ? hdec_ack_in : ack_q;
    wire       pm = start ? pm_enter_in : pm_q;
    wire [63:0] dwd = start ? dec_wdata_in : dwd_q;
    wire [63:0] hwd = start ? hdec_wdata_in : hwd_q;
    always @(posedge clk) begin
        pos_q <= last ? 64'd0 : pos_q + 64'd1;
        if (start) begin
            n_q <= n_in;
            wr_dec_q <= wr_dec_in;
            wr_hdec_q <= wr_hdec_in;
            ld_q <= lpcr_ld_in;
            hdice_q <= lpcr_hdice_in;
            ack_q <= hdec_ack_in;
            pm_q <= pm_enter_in;
            dwd_q <= dec_wdata_in;
            hwd_q <= hdec_wdata_in;
        end
    end

    wire [63:0] o_dec_rd, o_hdec_rd, o_dec_edge, o_hdec_edge, o_next_edge, o_dec, o_hdec;
    wire [63:0] m_dec_rd, m_hdec_rd, m_dec_edge, m_hdec_edge, m_next_edge, m_dec, m_hdec;
    wire        o_dec_irq, o_hdec_irq, m_dec_irq, m_hdec_irq;

    decrementer_unit one (
        .clk(clk), .rst(1'b0), .dec_bits(strap), .adv(last ? n : 64'd0),
        .wr_dec(last && wr_dec), .dec_wdata(dwd), .wr_hdec(last && wr_hdec), .hdec_wdata(hwd),
        .lpcr_ld(ld), .lpcr_hdice(hdice), .hdec_ack(last && ack), .pm_enter(last && pm),
        .dec_rd(o_dec_rd), .hdec_rd(o_hdec_rd), .dec_irq(o_dec_irq), .hdec_irq(o_hdec_irq),
        .dec_edge_ticks(o_dec_edge), .hdec_edge_ticks(o_hdec_edge),
        .next_edge_ticks(o_next_edge), .dec_state(o_dec), .hdec_state(o_hdec));
    decrementer_unit many (
        .clk(clk), .rst(1'b0), .dec_bits(strap), .adv(64'd1),
        .wr_dec(last && wr_dec), .dec_wdata(dwd), .wr_hdec(last && wr_hdec), .hdec_wdata(hwd),
        .lpcr_ld(ld), .lpcr_hdice(hdice), .hdec_ack(start && ack), .pm_enter(last && pm),
        .dec_rd(m_dec_rd), .hdec_rd(m_hdec_rd), .dec_irq(m_dec_irq), .hdec_irq(m_hdec_irq),
        .dec_edge_ticks(m_dec_edge), .hdec_edge_ticks(m_hdec_edge),
        .next_edge_ticks(m_next_edge), .dec_state(m_dec), .hdec_state(m_hdec));

    // The start: any state within the width, the same in both (dec_state, hdec_state and
    // hdec_irq are the unit's three registers).
    reg f_init;
    initial f_init = 1'b1;
    always @(posedge clk) f_init <= 1'b0;
    always @(*)
        if (f_init)
            assume ((o_dec & ~wm) == 64'd0 && (o_hdec & ~wm) == 64'd0 && m_dec == o_dec &&
                    m_hdec == o_hdec && m_hdec_irq == o_hdec_irq);

    always @(*) begin
        if (start)
            p_adv_n_equals_n_clocks_of_one: assert (o_dec == m_dec && o_hdec == m_hdec &&
                o_dec_irq == m_dec_irq && o_hdec_irq == m_hdec_irq && o_dec_rd == m_dec_rd &&
                o_hdec_rd == m_hdec_rd && o_dec_edge == m_dec_edge &&
                o_hdec_edge == m_hdec_edge && o_next_edge == m_next_edge);
        // The auxiliary invariants (proven with the property, docs/rtl-decrementer.md).
        a_state_within_width: assert ((o_dec & ~wm) == 64'd0 && (o_hdec & ~wm) == 64'd0);
        a_inside_the_step: assert (start || pos_q < n_q);
        if (!start)
            a_many_is_p_ticks_ahead: assert (m_dec == ((o_dec - pos_q) & wm) &&
                m_hdec == ((o_hdec - pos_q) & wm) &&
                m_hdec_irq == ((o_hdec_irq && !ack_q) || (hdice_q && pos_q > o_hdec)));
    end
endmodule

`default_nettype wire
