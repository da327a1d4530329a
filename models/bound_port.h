#pragma once
// An sc_port that keeps the interface it is bound to, as tlm sockets and VCML's irq sockets
// do: the owner that binds it (a platform's constructor) may use it at once, before the end of
// elaboration, and every access afterwards is a plain pointer (sc_port_b::operator-> is a
// virtual call). A port bound to a parent port learns its interface at end_of_elaboration.
// Using it unbound is an SC_REPORT_ERROR naming the port; so is an unbound port at the end of
// elaboration (SystemC's own "port not bound" check, policy SC_ONE_OR_MORE_BOUND).
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include <systemc>

namespace nestvp {

template <class IF>
class bound_port : public sc_core::sc_port<IF, 1, sc_core::SC_ONE_OR_MORE_BOUND> {
public:
    using base_type = sc_core::sc_port<IF, 1, sc_core::SC_ONE_OR_MORE_BOUND>;
    using on_bind_fn = std::function<void(IF&)>;

    // on_bind runs once the interface is known (bind time, or end of elaboration).
    explicit bound_port(const char* name, on_bind_fn on_bind = {})
        : base_type(name), m_on_bind(std::move(on_bind)) {}

    void bind(IF& iface) override {
        base_type::bind(iface);
        attach(iface);
    }
    using base_type::bind;
    using base_type::operator();

    bool is_bound() const { return m_if != nullptr; }
    IF* operator->() {
        if (!m_if) unbound();
        return m_if;
    }
    IF& operator*() { return *operator->(); }

    const char* kind() const override { return "bound_port"; }

protected:
    void end_of_elaboration() override {
        base_type::end_of_elaboration();
        if (!m_if) attach(*base_type::get_interface(0));  // bound through a parent port
    }

private:
    void attach(IF& iface) {
        m_if = &iface;
        if (m_on_bind) m_on_bind(iface);
    }
    [[noreturn]] void unbound() const {
        const std::string msg = std::string("port '") + this->name() + "' is not bound";
        SC_REPORT_ERROR("nestvp/bound_port", msg.c_str());
        throw std::logic_error(msg);  // reached only if the report handler does not throw
    }

    IF* m_if = nullptr;
    on_bind_fn m_on_bind;
};

}  // namespace nestvp
