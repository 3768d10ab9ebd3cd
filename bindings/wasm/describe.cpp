#include "describe.h"

#include "frames.h"
#include "posenc/posenc.h"

namespace posenc::bindings {

#define POSENC_STATUS_LINE(code, js_name, parameter, meaning) "status " #js_name " " parameter "\n"
#define POSENC_FRAME_LINE(operation, slots) "frame " #operation slots "\n"
#define X_(name) " " #name

const char kDescription[] = POSENC_STATUS_LIST(POSENC_STATUS_LINE) POSENC_FRAMES(POSENC_FRAME_LINE)
    // The enums' names in the order of their values (checked below).
    "enum sinusoidalLayout interleaved concat\n"
    "enum ropeLayout interleaved half\n"
    "enum order tokens heads\n"
    "enum scalingType default linear dynamic yarn llama3 longrope proportional\n"
    "enum metric dot cosine\n"
    "enum mropeModel qwen2-vl qwen2.5-vl\n"
    "enum xposRole none query key\n"
    "enum gridVariant pixtral axial\n"
    "enum attentionEncoding none sinusoidal rope alibi t5 xpos\n"
    "enum dtype float32 float16 bfloat16\n";

#undef X_
#undef POSENC_FRAME_LINE
#undef POSENC_STATUS_LINE

static_assert(static_cast<int>(XposRole::kNone) == 0 && static_cast<int>(XposRole::kQuery) == 1 &&
                  static_cast<int>(XposRole::kKey) == 2,
              "xPos role names above are listed in value order");
static_assert(static_cast<int>(MropeModel::kQwen2Vl) == 0 && static_cast<int>(MropeModel::kQwen25Vl) == 1,
              "M-RoPE model names above are listed in value order");
static_assert(static_cast<int>(RopeGridVariant::kPixtral) == 0 && static_cast<int>(RopeGridVariant::kAxial) == 1,
              "2-D RoPE variant names above are listed in value order");
static_assert(static_cast<int>(SinusoidalLayout::kConcat) == 1 && static_cast<int>(RopeLayout::kHalf) == 1 &&
                  static_cast<int>(RopeOrder::kHeads) == 1 && static_cast<int>(Metric::kCosine) == 1,
              "enum names above are listed in value order");
static_assert(static_cast<int>(AttentionEncoding::kNone) == 0 &&
                  static_cast<int>(AttentionEncoding::kSinusoidal) == 1 &&
                  static_cast<int>(AttentionEncoding::kRope) == 2 && static_cast<int>(AttentionEncoding::kAlibi) == 3 &&
                  static_cast<int>(AttentionEncoding::kT5) == 4,
              "attention encoding names above are listed in value order");
static_assert(static_cast<int>(Dtype::kFloat32) == 0 && static_cast<int>(Dtype::kFloat16) == 1 &&
                  static_cast<int>(Dtype::kBfloat16) == 2,
              "dtype names above are listed in value order");
static_assert(static_cast<int>(RopeScalingType::kNone) == 0 && static_cast<int>(RopeScalingType::kLinear) == 1 &&
                  static_cast<int>(RopeScalingType::kDynamic) == 2 && static_cast<int>(RopeScalingType::kYarn) == 3 &&
                  static_cast<int>(RopeScalingType::kLlama3) == 4 &&
                  static_cast<int>(RopeScalingType::kLongrope) == 5 &&
                  static_cast<int>(RopeScalingType::kProportional) == 6,
              "scaling type names above are listed in value order");

}  // namespace posenc::bindings
