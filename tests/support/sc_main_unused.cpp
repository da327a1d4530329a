// libsystemc.so refers to sc_main. Tests without SYSTEMC (plain gtest_main) and the fuzz targets
// may still link the SystemC-based libraries (a Debug/ASan link keeps more of them), but never
// elaborate a design, so this sc_main is never called. nestvp_add_test adds it to every
// non-SYSTEMC test.
#include <cstdio>

extern "C" int sc_main(int, char**) {  // declared extern "C" in sysc/kernel/sc_externs.h
    std::fprintf(stderr, "sc_main is not used by this executable\n");
    return 1;
}
