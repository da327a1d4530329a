// decrementer_unit: DEC + HDEC of one hardware thread, with a bulk time-step port.
//
// Semantics: timer-facilities.md §2 (DEC), §3 (HDEC), §7.2 (sketch); docs/rtl-decrementer.md.
//
// * Width: the implemented large-decrementer width W is the `dec_bits` strap (32..64; a
//   tie-off in a real netlist, 56 on POWER9/10, §2.1 "ibm,dec-bits"). Both counters are W bits
//   (registers are 64 bits; bits 63:W are kept 0).
// * DEC (§2.1): LPCR[LD]=1: writes keep bits W-1:0, reads sign-extend from bit W-1. LD=0:
//   writes load bits 31:0 zero-extended (bits W-1:32 cleared, the §7.2 choice, as
//   models/decrementer.cpp), reads return bits 31:0 zero-extended. The whole W-bit counter
//   decrements in both modes.
// * DEC exception (§2.2): a level, the MSB of the active width (bit 31, or bit W-1 when LD=1),
//   evaluated combinationally, so an LD change re-evaluates it at once (§8 vector 17 choice).
// * HDEC (§3): always W bits, sign-extended reads. The exception is the MSB 0->1 edge (a
//   decrement from 0 to -1, or a write that takes a non-negative HDEC negative), latched while
//   LPCR[HDICE]=1 and dropped while HDICE=0 (POWER9, §8 vector 23), cleared by hdec_ack or
//   pm_enter. A new edge in the same clock as hdec_ack stays latched (set wins over ack);
//   pm_enter discards everything (§3 "power-saving").
// * Time: `adv` ticks elapse in this clock (0 .. 2^64-1; the wrapper uses 0 .. 2^56). One clock
//   with adv=N equals N clocks with a one-tick enable: the DEC level is the state at the end,
//   and the HDEC latch is set if any 0->-1 crossing falls within the N ticks while HDICE=1
//   (every crossing, e.g. an advance of 2^56+1 from 0 crosses twice and latches once).
// * A register write wins over a simultaneous tick (§7.2, Microwatt, A2O): with wr_x and
//   adv=N>0 in one clock, x sees N-1 ticks, then the write replaces the last one; the HDEC
//   write edge compares the written value with the value after those N-1 ticks.
// * Next-edge outputs: ticks until the DEC level changes (0->-1 assert or wrap-to-positive
//   deassert), until the next HDEC 0->-1 crossing, and the nearest of those that can change an
//   output (the HDEC edge only when HDICE=1 and nothing is latched). A distance of 2^64 ticks
//   (HDEC = -1 with W = 64) saturates to 2^64-1, "never" for the wrapper.
//
// Synthesizable: one clock, synchronous active-high reset to defined values, no delays, no
// initial blocks.
`default_nettype none

module decrementer_unit (
    input  wire        clk,
    input  wire        rst,             // synchronous reset
    input  wire [6:0]  dec_bits,        // strap: implemented width W, 32..64
    input  wire [63:0] adv,             // TB ticks elapsing in this clock
    input  wire        wr_dec,          // mtDEC
    input  wire [63:0] dec_wdata,
    input  wire        wr_hdec,         // mtHDEC
    input  wire [63:0] hdec_wdata,
    input  wire        lpcr_ld,         // LPCR[LD]
    input  wire        lpcr_hdice,      // LPCR[HDICE]
    input  wire        hdec_ack,        // HDEC interrupt taken
    input  wire        pm_enter,        // entry into a power-saving state
    output wire [63:0] dec_rd,          // mfDEC, formatted
    output wire [63:0] hdec_rd,         // mfHDEC, sign-extended
    output wire        dec_irq,         // DEC exception level
    output wire        hdec_irq,        // HDEC latched edge
    output wire [63:0] dec_edge_ticks,  // ticks until the DEC level changes (1 .. 2^(W-1))
    output wire [63:0] hdec_edge_ticks, // ticks until the next HDEC 0->-1 (1 .. 2^W, saturated)
    output wire [63:0] next_edge_ticks, // nearest edge that can change dec_irq or hdec_irq
    output wire [63:0] dec_state,       // raw counters, for waveforms
    output wire [63:0] hdec_state
);

    localparam [63:0] ONE = 64'd1;
    localparam [63:0] ALL = ~64'd0;
    localparam [63:0] LOW32 = 64'h0000_0000_FFFF_FFFF;

    reg [63:0] dec_q;
    reg [63:0] hdec_q;
    reg        hdec_pend_q;

    // ---- Width masks -----------------------------------------------------------------------
    wire        w64 = dec_bits[6];                                  // 64 (or more): all bits
    wire [63:0] wmask = w64 ? ALL : (ONE << dec_bits[5:0]) - ONE;   // bits W-1:0
    wire [63:0] wmsb = wmask ^ (wmask >> 1);                        // bit W-1
    // DEC active width: W when LD=1, 32 when LD=0.
    wire [63:0] amask = lpcr_ld ? wmask : LOW32;
    wire [63:0] amsb = amask ^ (amask >> 1);

    // Reset values (models/decrementer.h, models/hypervisor_decrementer.h): DEC = 0x7FFF_FFFF,
    // HDEC = 2^(W-1)-1 (maximum positive), nothing latched.
    wire [63:0] dec_reset = 64'h0000_0000_7FFF_FFFF;
    wire [63:0] hdec_reset = wmask >> 1;

    // ---- DEC next state ----------------------------------------------------------------------
    // §2.1 write truncation: LD=1 keeps W bits, LD=0 the low 32 bits zero-extended.
    wire [63:0] dec_next = wr_dec ? (dec_wdata & amask) : ((dec_q - adv) & wmask);

    // ---- HDEC next state and edge ------------------------------------------------------------
    // Ticks that elapse before this clock's write point: all of adv, or adv-1 when a write
    // takes the place of the last tick.
    wire        adv_nz = |adv;
    wire [63:0] hdec_pre_ticks = wr_hdec ? (adv_nz ? adv - ONE : 64'd0) : adv;
    wire [63:0] hdec_pre = (hdec_q - hdec_pre_ticks) & wmask;
    // The first 0->-1 crossing is hdec_q+1 ticks away (unsigned): crossed iff ticks > hdec_q.
    wire        hdec_crossed = hdec_pre_ticks > hdec_q;
    // §3: a write that takes a non-negative HDEC negative is an edge; negative->negative is not.
    wire        hdec_wr_edge = wr_hdec && ~|(hdec_pre & wmsb) && |(hdec_wdata & wmsb);
    wire        hdec_set = lpcr_hdice && (hdec_crossed || hdec_wr_edge);
    wire [63:0] hdec_next = wr_hdec ? (hdec_wdata & wmask) : hdec_pre;
    wire        hdec_pend_next = !pm_enter && (hdec_set || (hdec_pend_q && !hdec_ack));

    always @(posedge clk) begin
        if (rst) begin
            dec_q       <= dec_reset;
            hdec_q      <= hdec_reset;
            hdec_pend_q <= 1'b0;
        end else begin
            dec_q       <= dec_next;
            hdec_q      <= hdec_next;
            hdec_pend_q <= hdec_pend_next;
        end
    end

    // ---- Outputs -------------------------------------------------------------------------------
    // §2.2 level on the MSB of the active width.
    assign dec_irq = |(dec_q & amsb);
    assign hdec_irq = hdec_pend_q;
    // §2.1 read formatting: LD=1 sign-extends from bit W-1, LD=0 zero-extends bits 31:0.
    wire   dec_neg = |(dec_q & wmsb);
    wire   hdec_neg = |(hdec_q & wmsb);
    assign dec_rd = lpcr_ld ? (dec_q | (dec_neg ? ~wmask : 64'd0)) : (dec_q & LOW32);
    assign hdec_rd = hdec_q | (hdec_neg ? ~wmask : 64'd0);
    // Level change after (value mod 2^(W-1)) + 1 ticks: 0 -> -1 when non-negative, the wrap
    // from -2^(W-1) to 2^(W-1)-1 when negative.
    assign dec_edge_ticks = (dec_q & (amask >> 1)) + ONE;
    assign hdec_edge_ticks = (hdec_q == ALL) ? ALL : hdec_q + ONE;
    wire   hdec_matters = lpcr_hdice && !hdec_pend_q;
    assign next_edge_ticks = (hdec_matters && hdec_edge_ticks < dec_edge_ticks) ? hdec_edge_ticks
                                                                                : dec_edge_ticks;
    assign dec_state = dec_q;
    assign hdec_state = hdec_q;

`ifdef NESTVP_ASSERT
    // The properties, for simulation (Verilator --assert) and for the proofs (make formal).
`include "decrementer_unit_properties.vh"
`ifdef NESTVP_COVER
`include "decrementer_unit_scenarios.vh"
`endif
`endif

endmodule

`default_nettype wire
