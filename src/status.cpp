#include "posenc/status.h"

namespace posenc {

const char* status_name(Status status) {
  switch (status) {
#define POSENC_STATUS_NAME(code, js_name, parameter, meaning) \
  case Status::code:                                          \
    return meaning;
    POSENC_STATUS_LIST(POSENC_STATUS_NAME)
#undef POSENC_STATUS_NAME
  }
  return "unknown status";
}

}  // namespace posenc
