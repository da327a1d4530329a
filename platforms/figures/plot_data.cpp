// The exit timeline as text, between a `compare` child and its parent.
#include "platforms/figures/plot_data.h"

#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "platforms/records/json.h"

namespace nestvp {

std::string plot_data_text(const run_result& r) {
    std::string s = "bin_s " + json_number(r.exits.bin_s) + "\n";
    const auto& counts = r.exits.counts;
    for (size_t v = 0; v < counts.size(); ++v) {
        s += "vcpu " + std::to_string(v);
        for (uint64_t n : counts[v]) s += " " + std::to_string(n);
        s += "\n";
    }
    return s;
}

void parse_plot_data(const std::string& text, const std::string& what, run_result& r) {
    std::istringstream in(text);
    std::string line;
    unsigned n = 0;
    double bin_s = 0;
    std::vector<std::vector<uint64_t>> counts;
    const auto bad = [&](const std::string& why) {
        return std::runtime_error(what + ":" + std::to_string(n) + ": " + why);
    };
    while (std::getline(in, line)) {
        ++n;
        if (line.empty()) continue;
        std::istringstream ls(line);
        std::string kind, rest;
        ls >> kind;
        if (kind == "bin_s") {
            if (!(ls >> bin_s) || (ls >> rest) || !(bin_s > 0))
                throw bad("malformed plot data line (bin_s wants one positive number)");
        } else if (kind == "vcpu") {
            unsigned v = 0;
            if (!(ls >> v) || v > 4096) throw bad("malformed plot data line (vcpu index)");
            if (counts.size() <= v) counts.resize(v + 1);
            std::vector<uint64_t> row;
            for (std::string w; ls >> w;) {
                if (w.size() > 19 || w.find_first_not_of("0123456789") != std::string::npos)
                    throw bad("malformed plot data line (count '" + w + "')");
                row.push_back(std::stoull(w));
            }
            counts[v] = std::move(row);
        } else {
            throw bad("malformed plot data line");
        }
    }
    if (bin_s == 0 && !counts.empty()) throw bad("plot data has counts but no bin_s line");
    r.exits = {bin_s, std::move(counts)};
}

}  // namespace nestvp
