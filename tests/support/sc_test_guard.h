#pragma once
// SystemC elaborates once per process: a SystemC TEST runs alone (ctest runs one per process).
#include <gtest/gtest.h>

#include <systemc>

#define NESTVP_SC_TEST_GUARD()                                                      \
    do {                                                                            \
        if (sc_core::sc_get_status() != sc_core::SC_ELABORATION)                    \
            GTEST_SKIP() << "SystemC already elaborated; run one TEST per process"; \
    } while (0)
