#include "core/synth/training_step.h"

#include <algorithm>

namespace ks::core {

namespace {

    constexpr std::int64_t kUs = 1000;
    constexpr std::int64_t T = SynthJobShape::kTokens;
    constexpr std::int64_t H = SynthJobShape::kHidden;
    constexpr std::int64_t V = SynthJobShape::kVocab;
    constexpr std::int64_t kHalf = 2; // bytes per fp16 activation element
    constexpr int kCompute = RankLayout::kComputeStream;
    constexpr int kCopy = RankLayout::kCopyStream;

    RankLayout makeLayout(std::uint64_t seed, int rank)
    {
        RankLayout layout;
        layout.rank = rank;
        layout.device = rank % 8; // eight GPUs per node
        const std::uint64_t h = mixSeed(seed, 0x9e1d, static_cast<std::uint64_t>(rank));
        layout.pid = static_cast<std::int32_t>(100000 + h % 3000000);
        layout.mainTid = layout.pid;
        layout.backwardTid = layout.pid + 1000 + static_cast<std::int32_t>((h >> 32) % 90000);
        return layout;
    }

} // namespace

double SynthJobShape::computeScale(int rank) const
{
    return std::find(stragglers.begin(), stragglers.end(), rank) != stragglers.end() ? slowdown : 1.0;
}

std::int64_t SynthJobShape::collectiveElements(int k) const
{
    if (k == 0)
        return kVocab * kHidden + 2 * kHidden; // lm head + final norm
    if (k == collectivesPerStep() - 1)
        return (kVocab + kPositions) * kHidden; // token + position embeddings
    return 12 * kHidden * kHidden + 13 * kHidden; // one transformer block
}

TrainingStepSimulator::TrainingStepSimulator(const SynthJobShape& shape, int rank, const StepTexts& texts)
    : m_shape(shape)
    , m_layout(makeLayout(shape.seed, rank))
    , m_texts(texts)
    , m_timeline(m_layout)
{
    m_timeline.setComputeScale(shape.computeScale(rank));
    SynthRng rng(mixSeed(shape.seed, 0x57a7, static_cast<std::uint64_t>(rank)));
    // Ranks start profiling within ~1.5 ms of each other, then warm up briefly.
    m_profilerStart = rng.between(200 * kUs, 1500 * kUs);
    m_nextStepStart = m_profilerStart + rng.between(1000 * kUs, 3000 * kUs);
    m_nextSequence = 1000 + rng.between(0, 500);
}

std::int64_t TrainingStepSimulator::us(double mean, double spread)
{
    return m_rng->around(static_cast<std::int64_t>(mean * kUs), spread);
}

int TrainingStepSimulator::open(HostThread t, std::string_view op, int text)
{
    return m_timeline.openOp(t, RecordKind::CpuOp, name(op), text);
}

void TrainingStepSimulator::leaf(HostThread t, std::string_view op, std::int64_t workNs, int text)
{
    const int handle = open(t, op, text);
    m_timeline.work(t, workNs);
    m_timeline.closeOp(handle);
}

TrainingStepSimulator::ForwardOp TrainingStepSimulator::openForward(std::string_view op, int text)
{
    ForwardOp result;
    result.handle = open(HostThread::Main, op, text);
    result.sequence = m_nextSequence++;
    m_timeline.setSequence(result.handle, result.sequence, 0);
    result.flowId = m_timeline.flowFromForward(result.handle);
    return result;
}

void TrainingStepSimulator::save(
    NodeKind kind, int group, const ForwardOp& op, std::int64_t bytes, std::int64_t gemmUs)
{
    const std::uint64_t addr = bytes > 0 ? m_timeline.allocate(HostThread::Main, bytes) : 0;
    m_saved.push_back(SavedNode { kind, group, op.sequence, op.flowId, addr, bytes, gemmUs });
}

// A user_annotation (record_function) on the main thread; with `span`, also the
// gpu_user_annotation Kineto derives from it on the compute stream.
int TrainingStepSimulator::annotate(std::string_view label, int* span)
{
    const int handle = m_timeline.openOp(HostThread::Main, RecordKind::UserAnnotation, name(label));
    if (span)
        *span = m_timeline.openGpuSpan(kCompute);
    return handle;
}

void TrainingStepSimulator::closeAnnotation(int handle, int span)
{
    m_timeline.closeOp(handle);
    if (span >= 0) {
        const StepRecord& op = m_timeline.record(handle);
        m_timeline.closeGpuSpan(span, op.name, op.externalId);
    }
}

int TrainingStepSimulator::pythonOpen(std::string_view frame)
{
    return m_shape.python ? m_timeline.openPython(name(frame)) : -1;
}

void TrainingStepSimulator::pythonClose(int handle)
{
    if (handle >= 0)
        m_timeline.closePython(handle);
}

void TrainingStepSimulator::runForwardBackward(
    int step, const std::int64_t* collectiveEnds, StepRecords& out, std::vector<std::int64_t>& arrivals)
{
    SynthRng rng(mixSeed(
        m_shape.seed, static_cast<std::uint64_t>(m_layout.rank), static_cast<std::uint64_t>(step), 1));
    m_rng = &rng;
    m_timeline.attach(out, rng);
    m_timeline.setNow(HostThread::Main, m_nextStepStart);
    arrivals.assign(static_cast<std::size_t>(m_shape.collectivesPerStep()), 0);

    const std::string stepName = "ProfilerStep#" + std::to_string(m_shape.firstStep + step);
    m_stepOp = annotate(stepName, &m_stepSpan);
    m_trainPython = pythonOpen("train.py(112): train_step");
    loadBatch();
    zeroGrad();
    forward();
    backward(collectiveEnds, arrivals);
    m_rng = nullptr;
}

void TrainingStepSimulator::runOptimizer(int step, std::int64_t lastCollectiveEnd, StepRecords& out)
{
    SynthRng rng(mixSeed(
        m_shape.seed, static_cast<std::uint64_t>(m_layout.rank), static_cast<std::uint64_t>(step), 2));
    m_rng = &rng;
    m_timeline.attach(out, rng);
    finalizeBackward(lastCollectiveEnd);
    optimizerStep();
    logLoss(step);
    pythonClose(m_trainPython);
    closeAnnotation(m_stepOp, m_stepSpan);
    // prof.step() and the Python loop between steps.
    m_nextStepStart = m_timeline.now(HostThread::Main) + us(30, 0.3);
    m_rng = nullptr;
}

void TrainingStepSimulator::loadBatch()
{
    const HostThread main = HostThread::Main;
    const int loader = annotate("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", nullptr);
    const int py = pythonOpen("torch/utils/data/dataloader.py(631): __next__");
    for (int tensor = 0; tensor < 2; ++tensor) {
        const int stack = open(main, "aten::stack", m_texts.batch);
        leaf(main, "aten::empty", us(2));
        leaf(main, "aten::cat", us(25, 0.3), m_texts.batch);
        m_timeline.closeOp(stack);
    }
    // Input pipelines differ per rank and occasionally stall: the main source
    // of arrival skew at the collectives.
    m_timeline.work(main, us(180, 0.3) + (m_rng->chance(0.08) ? us(1500, 0.8) : 0));
    pythonClose(py);
    closeAnnotation(loader, -1);

    for (int tensor = 0; tensor < 2; ++tensor) {
        const int to = open(main, "aten::to", m_texts.batch);
        const int toCopy = open(main, "aten::_to_copy", m_texts.batch);
        leaf(main, "aten::empty_strided", us(3));
        const int copy = open(main, "aten::copy_", m_texts.batch);
        m_timeline.memcpy(main, MemcpyKind::HtoD, kCopy, T * 8, 11.5);
        m_timeline.closeOp(copy);
        m_timeline.closeOp(toCopy);
        m_timeline.closeOp(to);
    }
    // The batch was copied on a side stream: the compute stream waits for it.
    const EventMark copied = m_timeline.recordEvent(main, kCopy);
    m_timeline.streamWaitEvent(main, kCompute, copied);
}

void TrainingStepSimulator::zeroGrad()
{
    const HostThread main = HostThread::Main;
    const int zero = annotate("Optimizer.zero_grad#AdamW.zero_grad", nullptr);
    const int py = pythonOpen("torch/optim/optimizer.py(811): zero_grad");
    // DDP's flat gradient buckets are zeroed with one memset each.
    for (int bucket = 0; bucket < 2; ++bucket) {
        const int op = open(main, "aten::zero_", m_texts.activation);
        const int fill = open(main, "aten::fill_", m_texts.activation);
        m_timeline.memset(main, kCompute, m_shape.collectiveElements(bucket == 0 ? 0 : 1) * 4);
        m_timeline.closeOp(fill);
        m_timeline.closeOp(op);
    }
    pythonClose(py);
    closeAnnotation(zero, -1);
}

void TrainingStepSimulator::forward()
{
    int span = -1;
    const int annotation = annotate("## forward ##", &span);
    const int model = pythonOpen("nn.Module: GPT_0");
    m_saved.clear();

    const int embeddingPy = pythonOpen("nn.Module: Embedding_0");
    const ForwardOp embedding = openForward("aten::embedding", m_texts.embedding);
    leaf(HostThread::Main, "aten::reshape", us(3), m_texts.batch);
    const int select = open(HostThread::Main, "aten::index_select", m_texts.embedding);
    m_timeline.launchKernel(HostThread::Main, KernelId::IndexSelect, kCompute, us(9));
    m_timeline.closeOp(select);
    m_timeline.closeOp(embedding.handle);
    save(NodeKind::Embedding, 0, embedding, T * H * kHalf);
    pythonClose(embeddingPy);

    for (int layer = 0; layer < m_shape.layers; ++layer)
        forwardBlock(layer);
    forwardHeadAndLoss();

    pythonClose(model);
    closeAnnotation(annotation, span);
}

void TrainingStepSimulator::forwardBlock(int layer)
{
    const int group = layer + 1;
    const std::string index = std::to_string(layer);
    const int block = pythonOpen("nn.Module: Block_" + index);
    forwardLayerNorm(group, "nn.Module: LayerNorm_" + std::to_string(2 * layer));
    const int attention = pythonOpen("nn.Module: CausalSelfAttention_" + index);
    forwardLinear(
        group, "nn.Module: Linear_" + std::to_string(4 * layer), StepTexts::kQkv, T * 3 * H * kHalf, 90);
    forwardAttentionCore(group);
    forwardLinear(
        group, "nn.Module: Linear_" + std::to_string(4 * layer + 1), StepTexts::kOutProj, T * H * kHalf, 32);
    forwardElementwise(group, NodeKind::Dropout);
    pythonClose(attention);
    forwardElementwise(group, NodeKind::Add);
    forwardLayerNorm(group, "nn.Module: LayerNorm_" + std::to_string(2 * layer + 1));
    const int mlp = pythonOpen("nn.Module: MLP_" + index);
    forwardLinear(
        group, "nn.Module: Linear_" + std::to_string(4 * layer + 2), StepTexts::kFc1, T * 4 * H * kHalf, 120);
    forwardElementwise(group, NodeKind::Gelu);
    forwardLinear(
        group, "nn.Module: Linear_" + std::to_string(4 * layer + 3), StepTexts::kFc2, T * H * kHalf, 120);
    forwardElementwise(group, NodeKind::Dropout);
    pythonClose(mlp);
    forwardElementwise(group, NodeKind::Add);
    pythonClose(block);
}

void TrainingStepSimulator::forwardLinear(
    int group, std::string_view module, StepTexts::Linear which, std::int64_t outBytes, std::int64_t gemmUs)
{
    const HostThread main = HostThread::Main;
    const int py = pythonOpen(module);
    const int pyForward = pythonOpen("torch/nn/modules/linear.py(116): forward");
    const int linear = open(main, "aten::linear", m_texts.linear[which]);
    const int t = open(main, "aten::t", m_texts.activation);
    const int transpose = open(main, "aten::transpose", m_texts.activation);
    leaf(main, "aten::as_strided", us(1.5), m_texts.activation);
    m_timeline.closeOp(transpose);
    m_timeline.closeOp(t);
    const ForwardOp addmm = openForward("aten::addmm", m_texts.addmm[which]);
    // cuBLAS checks for stream capture before each GEMM.
    m_timeline.runtimeCall(main, RuntimeApi::StreamIsCapturing, us(1.2, 0.3));
    m_timeline.launchKernel(main, KernelId::GemmForward, kCompute, us(static_cast<double>(gemmUs)));
    m_timeline.closeOp(addmm.handle);
    save(NodeKind::Addmm, group, addmm, outBytes, gemmUs);
    m_timeline.closeOp(linear);
    pythonClose(pyForward);
    pythonClose(py);
}

void TrainingStepSimulator::forwardLayerNorm(int group, std::string_view module)
{
    const int py = pythonOpen(module);
    const int norm = open(HostThread::Main, "aten::layer_norm", m_texts.norm);
    const ForwardOp native = openForward("aten::native_layer_norm", m_texts.norm);
    leaf(HostThread::Main, "aten::empty", us(2));
    leaf(HostThread::Main, "aten::empty", us(1.5));
    m_timeline.launchKernel(HostThread::Main, KernelId::LayerNormForward, kCompute, us(6));
    m_timeline.closeOp(native.handle);
    save(NodeKind::LayerNorm, group, native, T * H * kHalf);
    m_timeline.closeOp(norm);
    pythonClose(py);
}

void TrainingStepSimulator::forwardAttentionCore(int group)
{
    const HostThread main = HostThread::Main;
    leaf(main, "aten::view", us(2), m_texts.qkv);
    const ForwardOp split = openForward("aten::split", m_texts.qkv);
    for (int i = 0; i < 3; ++i)
        leaf(main, "aten::narrow", us(2), m_texts.qkv);
    m_timeline.closeOp(split.handle);
    save(NodeKind::Split, group, split, 0);
    for (int i = 0; i < 3; ++i)
        leaf(main, "aten::transpose", us(2), m_texts.attention);

    const int sdpa = open(main, "aten::scaled_dot_product_attention", m_texts.attention);
    const ForwardOp flash = openForward("aten::_scaled_dot_product_flash_attention", m_texts.attention);
    const int inner = open(main, "aten::_flash_attention_forward", m_texts.attention);
    leaf(main, "aten::empty", us(2));
    leaf(main, "aten::empty", us(2));
    // The kernel needs more than 48 KB of shared memory: opted in per launch.
    m_timeline.runtimeCall(main, RuntimeApi::FuncSetAttribute, us(2.5, 0.3));
    m_timeline.launchKernel(main, KernelId::FlashForward, kCompute, us(55));
    m_timeline.closeOp(inner);
    m_timeline.closeOp(flash.handle);
    save(NodeKind::FlashAttention, group, flash, T * H * kHalf + T * 64);
    m_timeline.closeOp(sdpa);

    leaf(main, "aten::transpose", us(2), m_texts.attention);
    const int contiguous = open(main, "aten::contiguous", m_texts.attention);
    const ForwardOp clone = openForward("aten::clone", m_texts.attention);
    leaf(main, "aten::empty_like", us(3), m_texts.attention);
    const int copy = open(main, "aten::copy_", m_texts.attention);
    m_timeline.launchKernel(main, KernelId::Copy, kCompute, us(8));
    m_timeline.closeOp(copy);
    m_timeline.closeOp(clone.handle);
    save(NodeKind::Clone, group, clone, T * H * kHalf);
    m_timeline.closeOp(contiguous);
    leaf(main, "aten::view", us(2), m_texts.activation);
}

void TrainingStepSimulator::forwardElementwise(int group, NodeKind kind)
{
    const HostThread main = HostThread::Main;
    if (kind == NodeKind::Dropout) {
        const int dropout = open(main, "aten::dropout", m_texts.activation);
        const ForwardOp native = openForward("aten::native_dropout", m_texts.activation);
        m_timeline.launchKernel(main, KernelId::Dropout, kCompute, us(9));
        m_timeline.closeOp(native.handle);
        save(kind, group, native, T * H * (kHalf + 1));
        m_timeline.closeOp(dropout);
        return;
    }
    const bool gelu = kind == NodeKind::Gelu;
    const ForwardOp op =
        openForward(gelu ? "aten::gelu" : "aten::add", gelu ? m_texts.wideActivation : m_texts.activation);
    m_timeline.launchKernel(main, gelu ? KernelId::Gelu : KernelId::Add, kCompute, us(gelu ? 14 : 7));
    m_timeline.closeOp(op.handle);
    save(kind, group, op, gelu ? T * 4 * H * kHalf : T * H * kHalf);
}

void TrainingStepSimulator::forwardHeadAndLoss()
{
    const HostThread main = HostThread::Main;
    const int head = m_shape.layers + 1;
    forwardLayerNorm(head, "nn.Module: LayerNorm_final");
    const int py = pythonOpen("nn.Module: Linear_lm_head");
    const int linear = open(main, "aten::linear", m_texts.linear[StepTexts::kLmHead]);
    leaf(main, "aten::t", us(3), m_texts.activation);
    const int matmul = open(main, "aten::matmul", m_texts.linear[StepTexts::kLmHead]);
    const ForwardOp mm = openForward("aten::mm", m_texts.addmm[StepTexts::kLmHead]);
    m_timeline.launchKernel(main, KernelId::GemmForward, kCompute, us(800));
    m_timeline.closeOp(mm.handle);
    save(NodeKind::Mm, head, mm, T * V * kHalf, 800);
    m_timeline.closeOp(matmul);
    m_timeline.closeOp(linear);
    pythonClose(py);

    const int loss = open(main, "aten::cross_entropy_loss", m_texts.nll);
    const int logSoftmax = open(main, "aten::log_softmax", m_texts.logits);
    const ForwardOp inner = openForward("aten::_log_softmax", m_texts.logits);
    m_timeline.launchKernel(main, KernelId::LogSoftmax, kCompute, us(90));
    m_timeline.closeOp(inner.handle);
    save(NodeKind::LogSoftmax, head, inner, T * V * kHalf);
    m_timeline.closeOp(logSoftmax);
    const int nllNd = open(main, "aten::nll_loss_nd", m_texts.nll);
    const int nll = open(main, "aten::nll_loss", m_texts.nll);
    const ForwardOp forwardOp = openForward("aten::nll_loss_forward", m_texts.nll);
    m_timeline.launchKernel(main, KernelId::NllLoss, kCompute, us(5));
    m_timeline.closeOp(forwardOp.handle);
    save(NodeKind::NllLoss, head, forwardOp, 4);
    m_timeline.closeOp(nll);
    m_timeline.closeOp(nllNd);
    m_timeline.closeOp(loss);
}

} // namespace ks::core
