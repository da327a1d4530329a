#pragma once
// SIGINT as a flag: the handler only records the signal; a run polls the
// flag through run_options::should_stop, stops, writes partial metrics and exits 130.
namespace nestvp {

// Installs the handler (without SA_RESTART, so a parent blocked in waitpid() wakes up).
void install_sigint_flag();
bool sigint_received();

}  // namespace nestvp
