# build/nestvp.1 from the help text of the built binary (scripts/gen-manpage.py), rebuilt
# whenever the binary or the script changes. Debian's python3 only (NESTVP_PYTHON3).
find_program(NESTVP_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH REQUIRED)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/nestvp.1
    COMMAND ${NESTVP_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/gen-manpage.py
            $<TARGET_FILE:nestvp> ${PROJECT_BINARY_DIR}/nestvp.1
    DEPENDS nestvp ${PROJECT_SOURCE_DIR}/scripts/gen-manpage.py
    COMMENT "Generating nestvp.1 from nestvp --help"
    VERBATIM)
add_custom_target(nestvp_manpage ALL DEPENDS ${PROJECT_BINARY_DIR}/nestvp.1)
