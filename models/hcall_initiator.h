#pragma once
// The initiator side of the hcall protocol (docs/hcall-protocol.md): one TLM-2.0 blocking
// transaction per `sc 1` from L1, carrying the hcall frame in an hcall_extension. The payload
// and its extension are reused: only one context runs on a hardware thread, so calls cannot
// overlap (a second call while one is in flight is a logic error). A hardware_thread owns one;
// its socket is the thread's hcall_socket.
#include <cstdint>
#include <string>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "models/hcall_protocol.h"

namespace nestvp {

class hcall_initiator {
public:
    // Optional: a thread with no firmware bound (unit tests) answers hcalls with H_FUNCTION.
    tlm_utils::simple_initiator_socket_optional<hcall_initiator> socket;

    // `owner` names the thread in errors; the socket is created in the current module.
    hcall_initiator(const char* socket_name, std::string owner);
    hcall_initiator(const hcall_initiator&) = delete;
    hcall_initiator& operator=(const hcall_initiator&) = delete;

    bool bound() { return socket.size() != 0; }
    // Sends `frame` (r[3]: the hcall number) from thread `thread_id` and answers in place; a
    // target's error response answers H_FUNCTION. Returns the delay the target annotated,
    // which the caller honours (the thread stalls for it).
    sc_core::sc_time call(hcall_frame& frame, unsigned thread_id);

private:
    std::string m_owner;
    tlm::tlm_generic_payload m_gp;
    hcall_extension* m_ext;  // owned by m_gp
    bool m_in_flight = false;
};

}  // namespace nestvp
