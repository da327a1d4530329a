// adv_miter: one clock with adv=N equals N clocks with adv=1 (docs/rtl-decrementer.md, "Bulk
// time steps"; timer-facilities.md §2.1, §3, §7.2), checked by `make formal` (bounded).
//
// Two instances from one reset and one width strap. Time runs in steps of N clocks, N in
// 1..NMAX chosen freely at the start of each step, with LPCR, the write data and the strobes
// held for the step:
// * `one` sees N-1 idle clocks (adv=0, no strobe) and then one clock with adv=N and every
//   strobe of the step;
// * `many` sees N clocks with adv=1: hdec_ack in the first, the writes and pm_enter in the
//   last (the write takes the place of the N-th tick, set wins over the ack).
// At every step boundary all outputs of the two agree.
`default_nettype none

module adv_miter #(
    parameter integer NMAX = 4
) (
    input wire        clk,
    input wire        rst,
    input wire [2:0]  n_in,
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

    reg seen_rst_q;
    initial seen_rst_q = 1'b0;
    always @(posedge clk) if (rst) seen_rst_q <= 1'b1;
    always @(*) if (!seen_rst_q) assume (rst);

    // Position in the step: pos_q clocks of it are done; 0 starts a new step.
    reg [2:0] pos_q, n_q;
    reg       wr_dec_q, wr_hdec_q, ld_q, hdice_q, ack_q, pm_q;
    reg [63:0] dwd_q, hwd_q;
    wire      start = pos_q == 3'd0;
    always @(*) if (start) assume (n_in >= 3'd1 && n_in <= NMAX);
    wire [2:0] n = start ? n_in : n_q;
    wire      first = start;
    wire      last = pos_q + 3'd1 == n;
    wire      wr_dec = start ? wr_dec_in : wr_dec_q;
    wire      wr_hdec = start ? wr_hdec_in : wr_hdec_q;
    wire      ld = start ? lpcr_ld_in : ld_q;
    wire      hdice = start ? lpcr_hdice_in : hdice_q;
    wire      ack = start ? hdec_ack_in : ack_q;
    wire      pm = start ? pm_enter_in : pm_q;
    wire [63:0] dwd = start ? dec_wdata_in : dwd_q;
    wire [63:0] hwd = start ? hdec_wdata_in : hwd_q;
    always @(posedge clk) begin
        pos_q <= (rst || last) ? 3'd0 : pos_q + 3'd1;
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
        .clk(clk), .rst(rst), .dec_bits(strap), .adv(last ? {61'd0, n} : 64'd0),
        .wr_dec(last && wr_dec), .dec_wdata(dwd), .wr_hdec(last && wr_hdec), .hdec_wdata(hwd),
        .lpcr_ld(ld), .lpcr_hdice(hdice), .hdec_ack(last && ack), .pm_enter(last && pm),
        .dec_rd(o_dec_rd), .hdec_rd(o_hdec_rd), .dec_irq(o_dec_irq), .hdec_irq(o_hdec_irq),
        .dec_edge_ticks(o_dec_edge), .hdec_edge_ticks(o_hdec_edge),
        .next_edge_ticks(o_next_edge), .dec_state(o_dec), .hdec_state(o_hdec));
    decrementer_unit many (
        .clk(clk), .rst(rst), .dec_bits(strap), .adv(64'd1),
        .wr_dec(last && wr_dec), .dec_wdata(dwd), .wr_hdec(last && wr_hdec), .hdec_wdata(hwd),
        .lpcr_ld(ld), .lpcr_hdice(hdice), .hdec_ack(first && ack), .pm_enter(last && pm),
        .dec_rd(m_dec_rd), .hdec_rd(m_hdec_rd), .dec_irq(m_dec_irq), .hdec_irq(m_hdec_irq),
        .dec_edge_ticks(m_dec_edge), .hdec_edge_ticks(m_hdec_edge),
        .next_edge_ticks(m_next_edge), .dec_state(m_dec), .hdec_state(m_hdec));

    always @(posedge clk) begin
        if (seen_rst_q && start)
            p_adv_n_equals_n_clocks_of_one: assert (o_dec == m_dec && o_hdec == m_hdec &&
                o_dec_irq == m_dec_irq && o_hdec_irq == m_hdec_irq && o_dec_rd == m_dec_rd &&
                o_hdec_rd == m_hdec_rd && o_dec_edge == m_dec_edge &&
                o_hdec_edge == m_hdec_edge && o_next_edge == m_next_edge);
    end
    // The bound means something: a step of NMAX with the latch pending before it is reached.
    always @(posedge clk)
        if (seen_rst_q && !rst && pos_q == NMAX - 1 && o_hdec_irq && m_hdec_irq)
            c_adv_max_step_with_latch: cover (1'b1);
endmodule

`default_nettype wire
