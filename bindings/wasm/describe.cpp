#include "describe.h"

#include "operands.h"
#include "posenc/posenc.h"

namespace posenc::bindings {

#define POSENC_STATUS_LINE(code, js_name, parameter, meaning) "status " #js_name " " parameter "\n"
#define POSENC_OPERANDS_LINE(operation, slots) "operands " #operation slots "\n"
#define X_(name) " " #name

// Each enum's names from its list (named_enum.h), in value order; the scaling types whose
// schedule depends on the whole call's length; the defaults the specs share (defaults.h).
#define POSENC_NAME(enumerator, name) " " name
#define POSENC_SCALING_NAME(enumerator, name, by_length) " " name
#define POSENC_IF_true(words) words
#define POSENC_IF_false(words)
#define POSENC_BY_LENGTH_NAME(enumerator, name, by_length) POSENC_IF_##by_length(" " name)
#define POSENC_DEFAULT_LINE(constant, type, slot, value) "default " #slot " " #value "\n"

const char kDescription[] = POSENC_STATUS_LIST(POSENC_STATUS_LINE) POSENC_OPERANDS(POSENC_OPERANDS_LINE)
    "enum sinusoidalLayout" POSENC_SINUSOIDAL_LAYOUTS(POSENC_NAME) "\n"
    "enum ropeLayout" POSENC_ROPE_LAYOUTS(POSENC_NAME) "\n"
    "enum order" POSENC_ROPE_ORDERS(POSENC_NAME) "\n"
    "enum scalingType" POSENC_SCALING_TYPES(POSENC_SCALING_NAME) "\n"
    "enum metric" POSENC_METRICS(POSENC_NAME) "\n"
    "enum mropeModel" POSENC_MROPE_MODELS(POSENC_NAME) "\n"
    "enum xposRole" POSENC_XPOS_ROLES(POSENC_NAME) "\n"
    "enum gridVariant" POSENC_ROPE_GRID_VARIANTS(POSENC_NAME) "\n"
    "enum attentionEncoding" POSENC_ATTENTION_ENCODINGS(POSENC_NAME) "\n"
    "enum dtype" POSENC_DTYPES(POSENC_NAME) "\n"
    "lengthDependent scalingType" POSENC_SCALING_TYPES(POSENC_BY_LENGTH_NAME) "\n"
    POSENC_DEFAULTS(POSENC_DEFAULT_LINE);

#undef POSENC_DEFAULT_LINE
#undef POSENC_BY_LENGTH_NAME
#undef POSENC_IF_false
#undef POSENC_IF_true
#undef POSENC_SCALING_NAME
#undef POSENC_NAME
#undef X_
#undef POSENC_OPERANDS_LINE
#undef POSENC_STATUS_LINE

}  // namespace posenc::bindings
