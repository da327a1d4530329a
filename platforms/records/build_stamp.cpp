// Reads the header cmake/build_info.cmake generates at every build.
#include "platforms/records/build_stamp.h"

#include "nestvp_build_info.h"

namespace nestvp {

std::string build_version() {
    return NESTVP_BUILD_VERSION;
}
std::string build_commit() {
    return NESTVP_BUILD_COMMIT;
}
std::string build_describe() {
    return NESTVP_BUILD_DESCRIBE;
}

}  // namespace nestvp
