// The stop-request flag the termination signals set.
#include "platforms/processes/termination_signals.h"

#include <csignal>
#include <initializer_list>

namespace nestvp {

namespace {
volatile std::sig_atomic_t g_stops = 0;  // the count; only the handler writes it
extern "C" void on_stop_signal(int) {
    g_stops = g_stops + 1;
}
}  // namespace

void install_stop_signals() {
    struct sigaction sa = {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    // One handler for all three: a signal of the set is held while another's handler runs.
    for (const int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&sa.sa_mask, s);
    sa.sa_flags = 0;
    // A signal the caller ignores stays ignored (nohup's SIGHUP, SIGINT of a background job).
    for (const int s : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction old = {};
        if (sigaction(s, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(s, &sa, nullptr);
    }
}

bool stop_requested() {
    return g_stops != 0;
}

unsigned long stop_signal_count() {
    return static_cast<unsigned long>(g_stops);
}

}  // namespace nestvp
