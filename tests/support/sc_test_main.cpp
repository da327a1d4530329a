// sc_main for SystemC tests: every SystemC warning, error or fatal report becomes a
// test failure (VCML's pattern, field-anchors.md §1.1). Run one TEST per process (ctest).
#include <gtest/gtest.h>

#include <systemc>

namespace {

void fail_on_report(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
    if (report.get_severity() >= sc_core::SC_WARNING) {
        ADD_FAILURE() << "SystemC "
                      << (report.get_severity() == sc_core::SC_WARNING ? "warning" : "error")
                      << " [" << report.get_msg_type() << "]: " << report.get_msg();
    }
    if (report.get_severity() >= sc_core::SC_ERROR) throw report;
    sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}

}  // namespace

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    sc_core::sc_report_handler::set_handler(fail_on_report);
    return RUN_ALL_TESTS();
}
