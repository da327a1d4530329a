#pragma once
// Parameters declared next to the models that use them, in the manner of VCML's properties
// (field-anchors.md §1): a component's config struct holds each value with its default, and
// its describe() names each field's key, type, unit, range and meaning. The platform schema
// (platforms/config/param_schema.cpp) mounts these lists at their place in the platform file;
// the loader, --set, `nestvp params`, --dump-config and the run record all read them there.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace nestvp {

enum class param_type {
    uint,       // unsigned integer written in decimal (a float such as 4.0 is an error)
    hz,         // a frequency: a positive integer, scientific notation allowed (3.0e9)
    real,       // a floating-point number
    boolean,    // true | false
    string,     // any scalar text
    choice,     // one of `choices`
    real_list,  // a list of floating-point numbers
    cost,       // a cost: {cycles: N, source: "..."} in a file, N cycles with --set (N real, >= 0)
};

// The plausible range [lo, hi] of an assumed cost (lo > hi: none given).
struct cost_range {
    uint64_t lo = 1, hi = 0;
    bool empty() const { return lo > hi; }
};

// A cost in core cycles, with where the figure comes from ("assumption: ..." if assumed) and,
// for an assumption, its plausible range (docs/calibration.md). The cycles may be fractional
// where the source is (arithoh: 340.3 M iterations/s at 3.0 GHz is 8.8 cycles an iteration).
struct cost_param {
    double cycles = 0;
    std::string source;
    cost_range range;

    cost_param() = default;
    cost_param(double c, std::string s, cost_range r = {})
        : cycles(c), source(std::move(s)), range(r) {}
};

// One parsed value; which member is meaningful depends on the type.
struct param_value {
    uint64_t u = 0;            // uint, hz
    double d = 0.0;            // real, cost (cycles)
    bool b = false;            // boolean
    std::string s;             // string, choice, cost (source)
    std::vector<double> list;  // real_list; cost: its range [lo, hi] when given
};

// What a key is, apart from where its value lives.
struct param_meta {
    std::string path;  // relative to the component's mount point: "devices.mmio_hz"
    param_type type = param_type::string;
    std::string unit;  // "Hz", "s", "cycles", "" when unitless
    double min = 0.0;  // numeric range, inclusive; min_open makes it (min, max]
    double max = 0.0;
    bool min_open = false;
    std::vector<std::string> choices;  // for choice
    std::string description;
};

template <class C>
struct param_decl {
    param_meta meta;
    std::function<void(C&, const param_value&)> set;
    std::function<param_value(const C&)> get;
};

// The declarations of one config struct C. Each add_* takes the key, the field and what a
// reader of `nestvp params` needs; the default is the field's initializer.
template <class C>
class param_list {
public:
    param_list& add_uint(const char* key, unsigned C::*field, double min, double max,
                         const char* unit, const char* desc) {
        return add(
            meta(key, param_type::uint, unit, desc, min, max),
            [field](C& c, const param_value& v) { c.*field = static_cast<unsigned>(v.u); },
            [field](const C& c) { return of_u(c.*field); });
    }
    // A 64-bit integer; `type` is uint or hz (a frequency).
    param_list& add_u64(const char* key, uint64_t C::*field, param_type type, double min,
                        double max, const char* unit, const char* desc) {
        return add_same(meta(key, type, unit, desc, min, max), field, &param_value::u);
    }
    // A number in [min, max], or (min, max] when min_open.
    param_list& add_real(const char* key, double C::*field, double min, double max, bool min_open,
                         const char* unit, const char* desc) {
        param_meta m = meta(key, param_type::real, unit, desc, min, max);
        m.min_open = min_open;
        return add_same(std::move(m), field, &param_value::d);
    }
    param_list& add_bool(const char* key, bool C::*field, const char* desc) {
        return add_same(meta(key, param_type::boolean, "", desc), field, &param_value::b);
    }
    // Free text, or one of `choices` when given.
    param_list& add_text(const char* key, std::string C::*field, std::vector<std::string> choices,
                         const char* desc) {
        param_meta m =
            meta(key, choices.empty() ? param_type::string : param_type::choice, "", desc);
        m.choices = std::move(choices);
        return add_same(std::move(m), field, &param_value::s);
    }
    // A list of numbers, each in (min, max] or [min, max].
    param_list& add_list(const char* key, std::vector<double> C::*field, double min, double max,
                         bool min_open, const char* desc) {
        param_meta m = meta(key, param_type::real_list, "", desc, min, max);
        m.min_open = min_open;
        return add_same(std::move(m), field, &param_value::list);
    }
    // A cost in cycles (a real in [0, 1e9]) with its source and, for an assumption, its range.
    param_list& add_cost(const char* key, cost_param C::*field, const char* desc) {
        return add(
            meta(key, param_type::cost, "cycles", desc, 0.0, 1e9),
            [field](C& c, const param_value& v) {
                cost_range r;
                if (v.list.size() == 2)
                    r = cost_range{static_cast<uint64_t>(v.list[0]),
                                   static_cast<uint64_t>(v.list[1])};
                c.*field = cost_param{v.d, v.s, r};
            },
            [field](const C& c) {
                const cost_param& k = c.*field;
                param_value v;
                v.d = k.cycles;
                v.s = k.source;
                if (!k.range.empty())
                    v.list = {static_cast<double>(k.range.lo), static_cast<double>(k.range.hi)};
                return v;
            });
    }

    const std::vector<param_decl<C>>& decls() const { return m_decls; }

private:
    static param_meta meta(const char* key, param_type type, const char* unit, const char* desc,
                           double min = 0.0, double max = 0.0) {
        param_meta m;
        m.path = key;
        m.type = type;
        m.unit = unit;
        m.description = desc;
        m.min = min;
        m.max = max;
        return m;
    }
    static param_value of_u(uint64_t u) {
        param_value v;
        v.u = u;
        return v;
    }
    // A field held as param_value holds it (`slot`): copied both ways.
    template <class T>
    param_list& add_same(param_meta m, T C::*field, T param_value::*slot) {
        return add(
            std::move(m), [field, slot](C& c, const param_value& v) { c.*field = v.*slot; },
            [field, slot](const C& c) {
                param_value v;
                v.*slot = c.*field;
                return v;
            });
    }
    param_list& add(param_meta m, std::function<void(C&, const param_value&)> set,
                    std::function<param_value(const C&)> get) {
        m_decls.push_back({std::move(m), std::move(set), std::move(get)});
        return *this;
    }

    std::vector<param_decl<C>> m_decls;
};

}  // namespace nestvp
