#pragma once
// What L0 writes to the run-output buffer on exit (l0.run_output; nested-virtualization.md
// §2.6, §6): the element IDs for each exit vector under each firmware policy.
#include <cstdint>
#include <string>
#include <vector>

namespace nestvp {

// What L0 writes to the run-output buffer on exit (l0.run_output; §2.6, §6).
// powervm_deduced: what the seed's flat GET_STATE count forces on PowerVM's output
// (get-state-deduction.md §3): NIA and DEC_EXPIRY_TB on every exit, MSR and GPR3-12 on hcalls,
// HDAR, HDSISR, ASDR, NIA and MSR on HDSI (docs/l0-firmware.md).
enum class run_output_policy { qemu, powervm, powervm_dec_expiry, powervm_deduced };
const char* to_string(run_output_policy p);
// The names of every policy, in declaration order (the values l0.run_output accepts).
std::vector<std::string> run_output_policy_names();
// Accepts one of run_output_policy_names(); false otherwise.
bool parse_run_output_policy(const std::string& s, run_output_policy& out);
// The IDs L0 returns for an exit vector under a policy, in buffer order.
std::vector<uint16_t> run_output_ids(uint64_t exit_vector, run_output_policy p);
// The same list into `ids` (cleared first): no allocation once `ids` has grown (exit path).
void run_output_ids(uint64_t exit_vector, run_output_policy p, std::vector<uint16_t>& ids);
// The largest run-output buffer any policy can produce (header + elements), computed once.
uint64_t largest_run_output();

}  // namespace nestvp
