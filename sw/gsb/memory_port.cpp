// memory_port has no state; the destructor anchors its vtable here.
#include "sw/gsb/memory_port.h"

namespace nestvp {

memory_port::~memory_port() = default;

}  // namespace nestvp
