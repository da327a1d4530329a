#include "models/hcall_target.h"

#include <string>

namespace nestvp {

hcall_target::hcall_target(const sc_core::sc_module_name& name, hcall_handler_if& firmware)
    : sc_core::sc_module(name), socket("socket"), threads("threads"), m_firmware(firmware) {
    socket.register_b_transport(this, &hcall_target::b_transport);
}

void hcall_target::end_of_elaboration() {
    for (int i = 0; i < threads.size(); ++i) {
        hv_thread_if* t = threads[i];
        if (t->id() >= m_by_id.size()) m_by_id.resize(t->id() + 1, nullptr);
        if (m_by_id[t->id()])
            SC_REPORT_ERROR(name(),
                            ("two threads bound with id " + std::to_string(t->id())).c_str());
        m_by_id[t->id()] = t;
    }
}

void hcall_target::b_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    // The register frame and the caller's id travel in the extension. Any delay the caller
    // annotated goes back to it unchanged: the initiator honours it.
    (void)delay;
    hcall_extension* ext = gp.get_extension<hcall_extension>();
    hv_thread_if* t = ext ? thread_by_id(ext->thread_id) : nullptr;
    if (!t) {
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    m_firmware.hcall(*t, ext->frame);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace nestvp
