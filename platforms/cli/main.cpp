// nestvp: the command-line front end. Commands are dispatched from here.
#include <cstdio>
#include <cstring>
#include <string>

#include <systemc>

int sc_main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "--version") == 0) {
        std::printf("nestvp %s\n", NESTVP_VERSION);
        return 0;
    }
    std::fprintf(stderr, "usage: nestvp <command> [options]  (nestvp --version)\n");
    return 2;
}
