// decrementer_unit_scenarios.vh: functional coverage, included inside decrementer_unit after
// the properties (it uses their f_* helpers).
//
// The scenarios software creates on the unit, as cover points (docs/rtl-decrementer.md, "What
// is proven, what is simulated, what is covered"): `make formal` shows each reachable
// (yosys-smtbmc -c), so a proof whose antecedent never happens would be visible. Counting them
// per source in `make coverage` (Verilator --coverage-user) is not built yet. The c_* points are the antecedents
// of the exactness properties, formal only.
// Semantics: timer-facilities.md §2.1, §2.2, §3, §7.2.

// §2.1: the W-bit counter passes 0 -> -1 every 2^W ticks; twice within one clock needs
// adv > value + 2^W (65-bit).
wire [64:0] f_period = {1'b0, f_wmask} + 65'd1;

// f_past_ok: the previous clock was not a reset (its $past values are from a running unit).
reg f_past_ok;
`ifdef FORMAL
initial f_past_ok = 1'b0;
`endif
always @(posedge clk) f_past_ok <= f_seen_rst_q && !rst;

always @(posedge clk) begin
    if (f_seen_rst_q && !rst) begin
        // §2.1: DEC written with a negative value of the active width.
        s_dec_written_negative: cover (wr_dec && (lpcr_ld ? dec_wdata[f_top] : dec_wdata[31]));
        // §2.2: DEC written while its level is asserted.
        s_dec_written_level_high: cover (wr_dec && dec_irq);
        // §2.2, §8 vector 17: LD switched either way while the level was pending.
        s_ld_set_level_pending: cover (f_past_ok && lpcr_ld && !$past(lpcr_ld) && $past(dec_irq));
        s_ld_cleared_level_pending: cover (f_past_ok && !lpcr_ld && $past(lpcr_ld) &&
                                           $past(dec_irq));
        // §2.1: the 32-bit width, and large mode on a wider one.
        s_width_32: cover (dec_bits == 7'd32);
        s_large_mode_wide: cover (lpcr_ld && dec_bits > 7'd32);
        // §3: an HDEC 0 -> -1 crossing with HDICE=1 and with HDICE=0 (dropped, vector 23).
        s_hdec_crossing_hdice: cover (f_hdec_crosses && lpcr_hdice);
        s_hdec_crossing_no_hdice: cover (f_hdec_crosses && !lpcr_hdice);
        // §3: hdec_ack and a new edge in the same clock (set wins).
        s_ack_and_new_edge: cover (hdec_ack && lpcr_hdice && f_hdec_edge);
        // §3 "power-saving": pm_enter with the latch pending.
        s_pm_enter_latch_pending: cover (pm_enter && hdec_irq);
        // §7.2: a write in the clock whose ticks reach an edge of the written register.
        s_write_and_edge: cover ((wr_dec && adv != 64'd0 && adv >= dec_edge_ticks) ||
                                 (wr_hdec && f_hdec_crosses));
        // One clock that crosses zero more than once (DEC or HDEC).
        s_multi_zero_crossing: cover ({1'b0, adv} > {1'b0, dec_state} + f_period ||
                                      {1'b0, adv} > {1'b0, hdec_state} + f_period);
`ifdef FORMAL
        // The antecedents of the exactness properties are reachable.
        c_dec_edge_reached: cover (f_past_ok && $past(!wr_dec && adv == dec_edge_ticks));
        c_hdec_edge_latches: cover (f_past_ok && hdec_irq &&
                                    $past(lpcr_hdice && !hdec_irq && f_quiet &&
                                          adv == hdec_edge_ticks));
        c_next_edge_is_hdec: cover (f_past_ok && hdec_irq && $past(f_quiet && adv ==
                                    next_edge_ticks && next_edge_ticks < dec_edge_ticks));
        c_set_wins_over_ack: cover (f_past_ok && hdec_irq && $past(hdec_ack && hdec_irq));
        c_width_64_wrap: cover (dec_bits == 7'd64 && f_hdec_saturated);
`endif
    end
end
