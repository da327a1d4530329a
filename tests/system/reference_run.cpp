#include "reference_run.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace nestvp::test {

run_metrics run_reference(const std::string& sets) {
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const std::string out = std::string(NESTVP_BINARY_DIR) + "/system-" + test + "-" +
                            std::to_string(std::hash<std::string>{}(sets)) + ".json";
    const std::string cmd = "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " +
                            std::string(NESTVP_BINARY_DIR) + "/nestvp run " + NESTVP_SOURCE_DIR +
                            "/platforms/reference.yaml --quiet " + sets + " --json " + out +
                            " > /dev/null";
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("run failed: " + cmd);
    std::ifstream in(out);
    std::stringstream ss;
    ss << in.rdbuf();
    std::remove(out.c_str());
    return parse_run_record(ss.str(), out).result.metrics;
}

double counter(const run_metrics& m, const std::string& key) {
    const auto it = m.counters.find(key);
    return it == m.counters.end() ? 0.0 : static_cast<double>(it->second);
}

double vcpu_counter(const run_metrics& m, unsigned v, const std::string& key) {
    const auto& c = m.vcpu_counters.at(v);
    const auto it = c.find(key);
    return it == c.end() ? 0.0 : static_cast<double>(it->second);
}

}  // namespace nestvp::test
