// decrementer_unit_properties.vh: the unit's properties, included inside decrementer_unit.
//
// One text for both uses (docs/rtl-decrementer.md, "What is proven, what is simulated, what is
// covered"):
// * `make formal` (scripts/formal/) reads it with yosys -formal -DFORMAL -DNESTVP_ASSERT and
//   proves every property by k-induction with yosys-smtbmc;
// * the Verilated unit is meant to check the same properties at every clock (--assert
//   -DNESTVP_ASSERT, a failure calling nestvp_property_failed(name) through DPI); not built
//   yet: rtl/CMakeLists.txt passes --noassert and no wrapper defines the DPI function.
// Only the open-source yosys 0.23 front end's subset is used: labelled immediate assertions in
// clocked always blocks, $past, no sequences, no action blocks (FORMAL leaves the DPI out).
//
// The specification side is written independently of the datapath above: widths from a
// dynamic bit index and shifts rather than the one-hot masks, crossings in 65-bit arithmetic.
// Semantics: timer-facilities.md §2.1, §2.2, §3, §7.2; the unit's header comment.

`ifdef FORMAL
`define NESTVP_PROPERTY(name, cond) name: assert (cond);
`else
import "DPI-C" function void nestvp_property_failed(input string name);
`define NESTVP_PROPERTY(name, cond) name: assert (cond) else nestvp_property_failed(`"name`");
`endif

// ---- Checking starts after a reset ---------------------------------------------------------
// f_seen_rst_q: a reset clock has happened, so $past() refers to a state reached from reset.
// The wrapper resets in its first clock; formal starts with it clear (initial, FORMAL only).
reg f_seen_rst_q;
`ifdef FORMAL
initial f_seen_rst_q = 1'b0;
`endif
always @(posedge clk) if (rst) f_seen_rst_q <= 1'b1;

`ifdef FORMAL
// The strap is a tie-off: one constant width in 32..64 for the whole trace (§2.1).
(* anyconst *) reg [6:0] f_strap;
always @(*) assume (dec_bits == f_strap && f_strap >= 7'd32 && f_strap <= 7'd64);
`endif

// ---- Specification helpers (current clock) -------------------------------------------------
// §2.1 "ibm,dec-bits": W = dec_bits, 32..64. f_top = W-1 (6 bits: 64 -> 63).
wire [6:0]  f_top7 = dec_bits - 7'd1;
wire [5:0]  f_top = f_top7[5:0];
wire [6:0]  f_pad = 7'd64 - dec_bits;                       // bits above the width, 0..32
wire [63:0] f_wmask = ~64'd0 >> f_pad;                      // bits W-1:0
wire        f_dec_w_msb = dec_state[f_top];
wire        f_hdec_w_msb = hdec_state[f_top];
// §2.2: the level is bit 31 under LD=0, bit W-1 under LD=1.
wire        f_level = lpcr_ld ? f_dec_w_msb : dec_state[31];
// §2.1 read formatting: sign-extension from bit W-1 by an arithmetic shift.
wire [63:0] f_dec_sext = $unsigned($signed(dec_state << f_pad) >>> f_pad);
wire [63:0] f_hdec_sext = $unsigned($signed(hdec_state << f_pad) >>> f_pad);
// §2.1 write truncation of DEC.
wire [63:0] f_dec_written = lpcr_ld ? (dec_wdata & f_wmask) : {32'd0, dec_wdata[31:0]};
// §7.2 write wins over a tick: with a write, the written register sees adv-1 ticks first.
wire [63:0] f_hdec_ticks = (wr_hdec && adv != 64'd0) ? adv - 64'd1 : (wr_hdec ? 64'd0 : adv);
// §3: the first 0 -> -1 crossing is hdec+1 ticks away (65-bit, no wrap).
wire        f_hdec_crosses = {1'b0, f_hdec_ticks} >= {1'b0, hdec_state} + 65'd1;
wire [63:0] f_hdec_before_write = (hdec_state - f_hdec_ticks) & f_wmask;
wire        f_hdec_write_edge = wr_hdec && !f_hdec_before_write[f_top] && hdec_wdata[f_top];
wire        f_hdec_edge = f_hdec_crosses || f_hdec_write_edge;
wire        f_hdec_sets = lpcr_hdice && f_hdec_edge && !pm_enter;
// The last of the 2^W values: the HDEC edge 2^64 ticks away saturates (W = 64, HDEC = -1).
wire        f_hdec_saturated = hdec_state == ~64'd0;
wire        f_quiet = !wr_dec && !wr_hdec && !hdec_ack && !pm_enter;

// ---- Properties -------------------------------------------------------------------------
always @(posedge clk) begin
    if (f_seen_rst_q) begin
        // §2.1, §3: both counters are W bits; bits 63:W stay 0.
        `NESTVP_PROPERTY(p_bits_above_width_zero,
                         (dec_state & ~f_wmask) == 64'd0 && (hdec_state & ~f_wmask) == 64'd0)
        // Reset values (docs/decrementer.md, docs/hypervisor-decrementer.md).
        if ($past(rst))
            `NESTVP_PROPERTY(p_reset_values, dec_state == 64'h0000_0000_7FFF_FFFF &&
                             hdec_state == (f_wmask >> 1) && !hdec_irq)
        // §2.2: the DEC level is the MSB of the active width, combinational in LD (an LD
        // change re-evaluates it in the same clock, §8 vector 17 choice).
        `NESTVP_PROPERTY(p_dec_level_is_active_msb, dec_irq == f_level)
        // §2.1 read formatting (LD=1 sign-extends from W-1, LD=0 zero-extends 31:0; HDEC §3).
        `NESTVP_PROPERTY(p_read_formatting,
                         dec_rd == (lpcr_ld ? f_dec_sext : {32'd0, dec_state[31:0]}) &&
                         hdec_rd == f_hdec_sext)
        if (!$past(rst)) begin
            // §7.2: a write wins over a simultaneous tick; otherwise the counters lose adv
            // ticks modulo 2^W.
            `NESTVP_PROPERTY(p_dec_write_wins_else_counts, dec_state == ($past(wr_dec) ?
                             $past(f_dec_written) : ($past(dec_state) - $past(adv)) & f_wmask))
            `NESTVP_PROPERTY(p_hdec_write_wins_else_counts, hdec_state == ($past(wr_hdec) ?
                             ($past(hdec_wdata) & f_wmask) : $past(f_hdec_before_write)))
            // §3: a 0 -> -1 crossing (or a write that takes HDEC negative) while HDICE=1
            // latches, also against hdec_ack in the same clock (set wins over ack).
            `NESTVP_PROPERTY(p_hdec_latch_sets_on_edge_with_hdice,
                             !$past(f_hdec_sets) || hdec_irq)
            // §3, §8 vector 23 (POWER9): while HDICE=0 nothing latches.
            `NESTVP_PROPERTY(p_hdec_latch_never_without_hdice,
                             !$past(!lpcr_hdice && !hdec_irq) || !hdec_irq)
            // The latch rises exactly on such an edge.
            `NESTVP_PROPERTY(p_hdec_latch_rises_only_on_edge,
                             !(hdec_irq && !$past(hdec_irq)) || $past(f_hdec_sets))
            // The latch holds until hdec_ack or pm_enter (clearing HDICE or a write keeps it).
            `NESTVP_PROPERTY(p_hdec_latch_holds_until_ack,
                             !$past(hdec_irq && !hdec_ack && !pm_enter) || hdec_irq)
            // hdec_ack clears the latch unless a new edge comes in the same clock.
            `NESTVP_PROPERTY(p_hdec_ack_clears_old_edge,
                             !$past(hdec_ack && !f_hdec_sets) || !hdec_irq)
            // §3 "power-saving": pm_enter discards everything, a new edge included.
            `NESTVP_PROPERTY(p_pm_enter_clears_latch, !$past(pm_enter) || !hdec_irq)
            // dec_edge_ticks is exact: fewer ticks leave the level, that many change it.
            if ($past(!wr_dec) && lpcr_ld == $past(lpcr_ld))
                `NESTVP_PROPERTY(p_dec_edge_ticks_exact,
                                 ($past(adv) < $past(dec_edge_ticks) && dec_irq == $past(dec_irq)) ||
                                 ($past(adv) == $past(dec_edge_ticks) && dec_irq != $past(dec_irq)) ||
                                 $past(adv) > $past(dec_edge_ticks))
            // hdec_edge_ticks is exact: fewer ticks do not latch, that many do (HDICE=1,
            // nothing latched, no strobe); the saturated 2^64 is "never".
            if ($past(lpcr_hdice && !hdec_irq && f_quiet))
                `NESTVP_PROPERTY(p_hdec_edge_ticks_exact,
                                 ($past(adv) < $past(hdec_edge_ticks) && !hdec_irq) ||
                                 ($past(adv) == $past(hdec_edge_ticks) &&
                                  (hdec_irq || $past(f_hdec_saturated))) ||
                                 $past(adv) > $past(hdec_edge_ticks))
            // next_edge_ticks is exact: fewer ticks change neither output, that many change one.
            if ($past(f_quiet) && lpcr_ld == $past(lpcr_ld))
                `NESTVP_PROPERTY(p_next_edge_ticks_exact,
                                 ($past(adv) < $past(next_edge_ticks) &&
                                  dec_irq == $past(dec_irq) && hdec_irq == $past(hdec_irq)) ||
                                 ($past(adv) == $past(next_edge_ticks) &&
                                  (dec_irq != $past(dec_irq) || hdec_irq != $past(hdec_irq))) ||
                                 $past(adv) > $past(next_edge_ticks))
        end
    end
end

`undef NESTVP_PROPERTY
