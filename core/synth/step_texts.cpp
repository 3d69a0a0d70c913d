#include "core/synth/step_texts.h"

#include "core/synth/training_step.h"

#include <string_view>

namespace ks::core {

namespace {

    constexpr std::int64_t T = SynthJobShape::kTokens;
    constexpr std::int64_t H = SynthJobShape::kHidden;
    constexpr std::int64_t V = SynthJobShape::kVocab;

    // Kineto's record_shapes args for tensors of the given sizes (contiguous).
    // "Concrete Inputs" (PyTorch >= 2.1) is left out: it keeps the JSON per event
    // near the ~245 bytes typical of real traces.
    int addShapes(StepTexts& out, const std::vector<std::vector<std::int64_t>>& dims,
        const std::vector<std::string_view>& types)
    {
        std::string type = "\"Input type\": [";
        std::string strides = "\"Input Strides\": [";
        std::string sizes = "\"Input Dims\": [";
        for (std::size_t i = 0; i < dims.size(); ++i) {
            const char* sep = i == 0 ? "" : ", ";
            type += sep;
            type += '"';
            type += types[i];
            type += '"';
            std::vector<std::int64_t> contiguous(dims[i].size());
            std::int64_t stride = 1;
            for (std::size_t d = dims[i].size(); d-- > 0;) {
                contiguous[d] = stride;
                stride *= dims[i][d];
            }
            std::string dimText = "[";
            std::string strideText = "[";
            for (std::size_t d = 0; d < dims[i].size(); ++d) {
                if (d > 0) {
                    dimText += ", ";
                    strideText += ", ";
                }
                dimText += std::to_string(dims[i][d]);
                strideText += std::to_string(contiguous[d]);
            }
            sizes += sep + dimText + "]";
            strides += sep + strideText + "]";
        }
        out.texts.push_back(type + "], " + strides + "], " + sizes + "]");
        return static_cast<int>(out.texts.size() - 1);
    }

    void addCollectiveTexts(StepTexts& out, const SynthJobShape& shape)
    {
        std::string ranks = "[";
        for (int r = 0; r < shape.worldSize; ++r) {
            if (r > 0)
                ranks += ", ";
            ranks += std::to_string(r);
        }
        ranks += "]";
        const std::string group =
            "\"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\", "
            "\"Process Group Ranks\": \""
            + ranks + "\", \"Group size\": " + std::to_string(shape.worldSize);
        for (int k = 0; k < shape.collectivesPerStep(); ++k) {
            const std::string n = std::to_string(shape.collectiveElements(k));
            const std::string sizes = "\"In msg nelems\": " + n + ", \"Out msg nelems\": " + n
                + ", \"dtype\": \"Float\", \"In split size\": \"[]\", \"Out split size\": \"[]\"";
            out.texts.push_back(group + ", \"Global rank start\": 0, \"Global rank stride\": 1, " + sizes
                + ", \"Collective name\": \"allreduce\"");
            out.comms.push_back(static_cast<int>(out.texts.size() - 1));
            out.texts.push_back("\"Collective name\": \"allreduce\", " + sizes + ", " + group);
            out.commKernel.push_back(static_cast<int>(out.texts.size() - 1));
        }
    }

} // namespace

StepTexts buildStepTexts(const SynthJobShape& shape)
{
    StepTexts out;
    const std::vector<std::string_view> half3 { "c10::Half", "c10::Half", "c10::Half" };
    const std::vector<std::string_view> addmmTypes { "c10::Half", "c10::Half", "c10::Half", "Scalar",
        "Scalar" };
    const std::int64_t outs[StepTexts::kLinearCount] = { 3 * H, H, 4 * H, H, V };
    const std::int64_t ins[StepTexts::kLinearCount] = { H, H, H, 4 * H, H };
    for (int i = 0; i < StepTexts::kLinearCount; ++i) {
        out.linear[i] = addShapes(out, { { T, ins[i] }, { outs[i], ins[i] }, { outs[i] } }, half3);
        out.addmm[i] =
            addShapes(out, { { outs[i] }, { T, ins[i] }, { ins[i], outs[i] }, {}, {} }, addmmTypes);
    }
    out.norm = addShapes(out, { { T, H }, {}, { H }, { H }, {}, {} },
        { "c10::Half", "ScalarList", "c10::Half", "c10::Half", "Scalar", "Scalar" });
    out.activation = addShapes(out, { { T, H } }, { "c10::Half" });
    out.wideActivation = addShapes(out, { { T, 4 * H } }, { "c10::Half" });
    out.qkv = addShapes(out, { { 4, 512, 3 * H }, {}, {} }, { "c10::Half", "Scalar", "Scalar" });
    out.attention = addShapes(out, { { 4, 16, 512, 64 }, { 4, 16, 512, 64 }, { 4, 16, 512, 64 }, {}, {}, {} },
        { "c10::Half", "c10::Half", "c10::Half", "", "Scalar", "Scalar" });
    out.embedding = addShapes(
        out, { { V, H }, { 4, 512 }, {}, {}, {} }, { "c10::Half", "long int", "Scalar", "Scalar", "Scalar" });
    out.logits = addShapes(out, { { T, V }, {}, {} }, { "c10::Half", "Scalar", "Scalar" });
    out.nll =
        addShapes(out, { { T, V }, { T }, {}, {}, {} }, { "c10::Half", "long int", "", "Scalar", "Scalar" });
    out.batch = addShapes(
        out, { { 4, 512 }, {}, {}, {}, {} }, { "long int", "Scalar", "Scalar", "Scalar", "Scalar" });
    out.adam = addShapes(out, { {}, {}, {}, {}, {} },
        { "TensorList", "TensorList", "TensorList", "TensorList", "TensorList" });
    addCollectiveTexts(out, shape);
    return out;
}

} // namespace ks::core
