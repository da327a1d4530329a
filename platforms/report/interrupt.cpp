// SIGINT flag.
#include "platforms/report/interrupt.h"

#include <csignal>

namespace nestvp {

namespace {
volatile std::sig_atomic_t g_sigint = 0;  // the count; only the handler writes it
extern "C" void on_sigint(int) {
    g_sigint = g_sigint + 1;
}
}  // namespace

void install_sigint_flag() {
    struct sigaction sa = {};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, nullptr);
}

bool sigint_received() {
    return g_sigint != 0;
}

unsigned long sigint_count() {
    return static_cast<unsigned long>(g_sigint);
}

}  // namespace nestvp
