#pragma once
// POSIX termination signals (glibc manual, "Termination Signals") as a stop request: SIGINT,
// SIGTERM and SIGHUP alike, never a hardware interrupt of the model. The handler only records the
// signal; a run polls the flag through run_options::should_stop, stops, writes partial metrics
// and exits 130; a command with child processes stops them (run_children).
namespace nestvp {

// Installs the handler for the three signals (without SA_RESTART, so a parent blocked in
// waitpid() wakes up).
void install_stop_signals();
bool stop_requested();
// How many stop signals arrived so far: a step that must stop only for a signal during it
// (drawing the figures of a run that a signal stopped) compares the count with its own start.
unsigned long stop_signal_count();

}  // namespace nestvp
