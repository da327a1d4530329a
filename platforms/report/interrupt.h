#pragma once
// SIGINT as a flag: the handler only records the signal; a run polls the
// flag through run_options::should_stop, stops, writes partial metrics and exits 130.
namespace nestvp {

// Installs the handler (without SA_RESTART, so a parent blocked in waitpid() wakes up).
void install_sigint_flag();
bool sigint_received();
// How many SIGINTs arrived so far: a step that must stop only for a SIGINT during it (drawing
// the figures of a run that a SIGINT stopped) compares the count with its own start.
unsigned long sigint_count();

}  // namespace nestvp
