#pragma once
// The firmware's end of the hcall protocol (models/hcall_protocol.h): a TLM-2.0 target socket
// every hardware thread's hcall_socket binds to, and a port of the threads it may act on. Each
// transaction names its thread by id in the extension; the target hands the frame and that
// thread to the firmware (hcall_handler_if) and answers TLM_OK, or TLM_GENERIC_ERROR for a
// payload with no extension or an unbound id. The firmware itself is plain software (sw/l0).
#include <vector>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/hcall_protocol.h"

namespace nestvp {

class hcall_target : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<hcall_target> socket;
    // The hardware threads the firmware runs on, bound by the platform.
    sc_core::sc_port<hv_thread_if, 0, sc_core::SC_ZERO_OR_MORE_BOUND> threads;

    hcall_target(const sc_core::sc_module_name& name, hcall_handler_if& firmware);

private:
    void end_of_elaboration() override;
    // The bound thread with this id; nullptr when none is.
    hv_thread_if* thread_by_id(unsigned id) const {
        return id < m_by_id.size() ? m_by_id[id] : nullptr;
    }
    void b_transport(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

    hcall_handler_if& m_firmware;
    std::vector<hv_thread_if*> m_by_id;  // threads by id, filled at the end of elaboration
};

}  // namespace nestvp
