#pragma once
// `nestvp compare --results A B`: two results side by side, without running anything. Each is
// a run record, a trace-stats JSON, a real-stack counts JSON or a trace text, so hardware and
// model line up (docs/cmd-compare.md, "Results").
#include <string>
#include <vector>

namespace nestvp {

struct compare_results_args {
    std::vector<std::string> files;
    std::vector<std::string> names;  // --names A,B
    std::string json_out;
};

int compare_results(const compare_results_args& a);

}  // namespace nestvp
