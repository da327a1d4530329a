#include "sw/metrics/path_recorder.h"

#include <algorithm>
#include <cstdio>

#include "sw/papr/papr.h"

namespace nestvp {




path_recorder::path_recorder(unsigned vcpus, double units_per_ns)
    : m_log(vcpus), m_units_per_ns(units_per_ns) {
    for (auto& h : m_hist) h.resize(vcpus);
}

void path_recorder::mark(unsigned vcpu, path_step s, uint64_t t) {
    if (vcpu >= m_log.size()) return;
    vcpu_log& l = m_log[vcpu];
    if (l.size) {
        const entry& last = l.back(0);
        if (last.step == s) return;
        t = std::max(t, last.t);
    }
    l.ring[l.head] = entry{t, s};
    l.head = (l.head + 1) % log_size;
    l.size = std::min(l.size + 1, log_size);
}

path_step path_recorder::current(unsigned vcpu) const {
    const vcpu_log& l = m_log.at(vcpu);
    return l.size ? l.back(0).step : path_step::other;
}

path_step path_recorder::step_at(unsigned vcpu, uint64_t t) const {
    const vcpu_log& l = m_log.at(vcpu);
    for (unsigned i = 0; i < l.size; ++i)
        if (l.back(i).t <= t) return l.back(i).step;
    return path_step::other;
}

double path_recorder::sample(latency_kind k, unsigned vcpu, uint32_t reason, uint64_t t0,
                             uint64_t t1, uint64_t excluded) {
    if (vcpu >= m_log.size() || t1 < t0) return 0;
    const vcpu_log& l = m_log[vcpu];
    const unsigned ki = static_cast<unsigned>(k);
    std::array<uint64_t, path_step_count>& steps = m_step_units[ki];
    uint64_t units = 0;
    const auto add = [&](path_step s, uint64_t d) {
        if (excluded & bit(s)) return;
        steps[static_cast<unsigned>(s)] += d;
        units += d;
    };
    // Walk back from the newest mark: each mark's step lasts until the next mark (or t1). Marks
    // are in time order (mark() clamps), so those at or after t1 are the newest ones: skipped
    // first, in a loop of their own.
    const unsigned n = l.size, newest = l.head + log_size - 1;
    unsigned i = 0;
    while (i < n && l.ring[(newest - i) % log_size].t >= t1) ++i;
    uint64_t seg_end = t1, covered_from = t1;
    for (; i < n && covered_from > t0; ++i) {
        const entry& e = l.ring[(newest - i) % log_size];
        const uint64_t from = std::max(e.t, t0);
        if (seg_end > from) add(e.step, seg_end - from);
        seg_end = e.t;
        covered_from = from;
    }
    if (covered_from > t0) add(path_step::other, covered_from - t0);
    ++m_count[ki];
    const double total = static_cast<double>(units) / m_units_per_ns;
    auto& list = m_hist[ki][vcpu];
    auto it = list.begin();
    while (it != list.end() && it->reason != reason) ++it;
    if (it == list.end()) {
        list.push_back(by_reason{reason, {}});
        it = list.end() - 1;
    }
    it->hist.add(total);
    return total;
}

std::array<double, path_step_count> path_recorder::breakdown(latency_kind k) const {
    std::array<double, path_step_count> out{};
    const unsigned ki = static_cast<unsigned>(k);
    if (m_count[ki] == 0) return out;
    for (unsigned s = 0; s < path_step_count; ++s)
        out[s] = static_cast<double>(m_step_units[ki][s]) / m_units_per_ns /
                 static_cast<double>(m_count[ki]);
    return out;
}

}  // namespace nestvp
