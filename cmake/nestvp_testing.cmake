# nestvp_add_test(NAME name SOURCES ... LIBS ... [SYSTEMC] [TIMEOUT seconds])
# One executable; every TEST becomes its own ctest entry (gtest_discover_tests), so each
# SystemC TEST gets a fresh kernel. SYSTEMC tests link the sc_main that turns SystemC
# warnings and errors into test failures.
# Every entry gets a TIMEOUT (docs/testing.md, "Timeouts"): by default
# nestvp_default_test_timeout, sized for the ASan Debug build (`make asan`, 5-10x slower than
# Release), where the slowest TEST of the default class runs well under a minute.
set(nestvp_default_test_timeout 600)
function(nestvp_add_test)
    cmake_parse_arguments(T "SYSTEMC" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
    if(NOT T_TIMEOUT)
        set(T_TIMEOUT ${nestvp_default_test_timeout})
    endif()
    add_executable(${T_NAME} ${T_SOURCES})
    if(T_SYSTEMC)
        target_link_libraries(${T_NAME} PRIVATE nestvp_sc_test_main ${T_LIBS} GTest::gtest)
        # sc_main lives in a static archive that libsystemc.so calls back into: keep it.
        target_link_options(${T_NAME} PRIVATE -Wl,--undefined=sc_main)
    else()
        # libsystemc.so needs an sc_main if any SystemC-based library gets linked.
        target_sources(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR}/tests/support/sc_main_unused.cpp)
        target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
    endif()
    target_compile_definitions(${T_NAME} PRIVATE
        NESTVP_SOURCE_DIR="${PROJECT_SOURCE_DIR}" NESTVP_BINARY_DIR="${PROJECT_BINARY_DIR}")
    gtest_discover_tests(${T_NAME}
        PROPERTIES ENVIRONMENT "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1"
        DISCOVERY_TIMEOUT 60)
    # LABELS and TIMEOUT from a file ctest reads after the discovered list (${T_NAME}_TESTS):
    # gtest_discover_tests flattens a property list, so "a;b" used to lose its second label and
    # shift any property after it off its value.
    set(props ${CMAKE_CURRENT_BINARY_DIR}/${T_NAME}_properties.cmake)
    file(WRITE ${props} "if(${T_NAME}_TESTS)\n"
        "  set_tests_properties(\${${T_NAME}_TESTS} PROPERTIES LABELS \"${T_LABELS}\"\n"
        "                      TIMEOUT ${T_TIMEOUT})\n"
        "endif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${props})
endfunction()

# nestvp_glob_library(name DIRS d1 d2 ... LIBS l1 l2 ...): a static library of every .cpp
# in the listed folders, so that adding a model needs no CMake edit.
function(nestvp_glob_library name)
    cmake_parse_arguments(L "" "" "DIRS;LIBS" ${ARGN})
    set(srcs)
    foreach(d ${L_DIRS})
        file(GLOB s CONFIGURE_DEPENDS ${d}/*.cpp)
        list(APPEND srcs ${s})
    endforeach()
    add_library(${name} STATIC ${srcs} ${PROJECT_SOURCE_DIR}/cmake/empty.cpp)
    target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
    target_link_libraries(${name} PUBLIC ${L_LIBS})
endfunction()
