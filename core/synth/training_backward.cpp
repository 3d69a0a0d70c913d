// Backward, DDP communication and optimizer phases of TrainingStepSimulator.
#include "core/synth/training_step.h"

#include <algorithm>
#include <string>

namespace ks::core {

namespace {

    constexpr std::int64_t T = SynthJobShape::kTokens;
    constexpr std::int64_t H = SynthJobShape::kHidden;
    constexpr std::int64_t V = SynthJobShape::kVocab;
    constexpr std::int64_t kHalf = 2;
    constexpr int kCompute = RankLayout::kComputeStream;
    constexpr int kComm = RankLayout::kCommStream;
    constexpr HostThread kBw = HostThread::Backward;
    constexpr HostThread kMain = HostThread::Main;

} // namespace

std::string_view TrainingStepSimulator::backwardName(NodeKind kind)
{
    switch (kind) {
    case NodeKind::Embedding:
        return "EmbeddingBackward0";
    case NodeKind::LayerNorm:
        return "NativeLayerNormBackward0";
    case NodeKind::Addmm:
        return "AddmmBackward0";
    case NodeKind::Mm:
        return "MmBackward0";
    case NodeKind::FlashAttention:
        return "ScaledDotProductFlashAttentionBackward0";
    case NodeKind::Clone:
        return "CloneBackward0";
    case NodeKind::Split:
        return "SplitBackward0";
    case NodeKind::Gelu:
        return "GeluBackward0";
    case NodeKind::Dropout:
        return "NativeDropoutBackward0";
    case NodeKind::Add:
        return "AddBackward0";
    case NodeKind::LogSoftmax:
        return "LogSoftmaxBackward0";
    case NodeKind::NllLoss:
        return "NllLossBackward0";
    }
    return "UnknownBackward0";
}

void TrainingStepSimulator::backward(const std::int64_t* collectiveEnds, std::vector<std::int64_t>& arrivals)
{
    m_backwardOp = annotate("## backward ##", &m_backwardSpan);
    m_backwardPython = pythonOpen("torch/_tensor.py(522): backward");
    // The main thread now blocks in the autograd engine; its device thread runs the graph.
    m_timeline.setNow(kBw, std::max(m_timeline.now(kBw), m_timeline.now(kMain)) + us(12, 0.3));

    // DDP buckets follow the backward order: one per group (head, blocks from
    // the last, embeddings), all-reduced as soon as the group's grads are ready.
    int group = m_shape.layers + 1;
    int collective = 0;
    for (auto node = m_saved.rbegin(); node != m_saved.rend(); ++node) {
        if (node->group != group) {
            allReduce(collective++, collectiveEnds, arrivals);
            group = node->group;
        }
        backwardNode(*node);
    }
    allReduce(collective, collectiveEnds, arrivals);
}

void TrainingStepSimulator::backwardNode(const SavedNode& node)
{
    const std::string nodeName(backwardName(node.kind));
    // Autograd nodes record no input shapes.
    const int evaluate = open(kBw, "autograd::engine::evaluate_function: " + nodeName);
    m_timeline.setSequence(evaluate, node.sequence, 1);
    const int op = open(kBw, nodeName);
    m_timeline.setSequence(op, node.sequence, 1);
    m_timeline.flowToBackward(op, node.flowId);
    switch (node.kind) {
    case NodeKind::Addmm:
    case NodeKind::Mm:
        backwardGemm(node);
        break;
    case NodeKind::LayerNorm:
        backwardLayerNorm();
        break;
    case NodeKind::FlashAttention:
        backwardAttention();
        break;
    case NodeKind::Embedding:
        backwardEmbedding();
        break;
    default:
        backwardSimple(node);
    }
    m_timeline.closeOp(op);
    if (node.bytes > 0)
        m_timeline.release(kBw, node.addr, node.bytes);
    m_timeline.closeOp(evaluate);

    if (node.kind == NodeKind::Addmm || node.kind == NodeKind::LayerNorm)
        accumulateGrad(2);
    else if (node.kind == NodeKind::Mm || node.kind == NodeKind::Embedding)
        accumulateGrad(1);
}

// The gradient flowing backward: each node allocates its output and frees its input.
void TrainingStepSimulator::newGrad(std::int64_t bytes)
{
    const std::uint64_t addr = m_timeline.allocate(kBw, bytes);
    if (m_pendingGradBytes > 0)
        m_timeline.release(kBw, m_pendingGrad, m_pendingGradBytes);
    m_pendingGrad = addr;
    m_pendingGradBytes = bytes;
}

void TrainingStepSimulator::backwardGemm(const SavedNode& node)
{
    const double gemm = static_cast<double>(node.gemmUs);
    leaf(kBw, "aten::t", us(2), m_texts.activation);
    const int dgrad = open(kBw, "aten::mm", m_texts.activation);
    newGrad(node.kind == NodeKind::Mm ? T * H * kHalf : node.bytes);
    m_timeline.runtimeCall(kBw, RuntimeApi::StreamIsCapturing, us(1.2, 0.3));
    m_timeline.launchKernel(kBw, KernelId::GemmDgrad, kCompute, us(gemm * 1.05));
    m_timeline.closeOp(dgrad);
    leaf(kBw, "aten::t", us(2), m_texts.activation);
    const int wgrad = open(kBw, "aten::mm", m_texts.activation);
    m_timeline.runtimeCall(kBw, RuntimeApi::StreamIsCapturing, us(1.2, 0.3));
    m_timeline.launchKernel(kBw, KernelId::GemmWgrad, kCompute, us(gemm * 1.1));
    m_timeline.closeOp(wgrad);
    if (node.kind == NodeKind::Addmm) {
        const int sum = open(kBw, "aten::sum", m_texts.activation);
        m_timeline.launchKernel(kBw, KernelId::SumReduce, kCompute, us(9));
        m_timeline.closeOp(sum);
        leaf(kBw, "aten::view", us(2), m_texts.activation);
    }
}

void TrainingStepSimulator::backwardLayerNorm()
{
    const int op = open(kBw, "aten::native_layer_norm_backward", m_texts.norm);
    newGrad(T * H * kHalf);
    m_timeline.launchKernel(kBw, KernelId::LayerNormBackwardInput, kCompute, us(9));
    m_timeline.launchKernel(kBw, KernelId::LayerNormBackwardGammaBeta, kCompute, us(7));
    m_timeline.closeOp(op);
}

void TrainingStepSimulator::backwardAttention()
{
    const int outer = open(kBw, "aten::_scaled_dot_product_flash_attention_backward", m_texts.attention);
    const int inner = open(kBw, "aten::_flash_attention_backward", m_texts.attention);
    for (int i = 0; i < 3; ++i)
        leaf(kBw, "aten::empty_like", us(2.5), m_texts.attention);
    newGrad(T * 3 * H * kHalf);
    m_timeline.launchKernel(kBw, KernelId::FlashBackwardDotDoO, kCompute, us(6));
    m_timeline.runtimeCall(kBw, RuntimeApi::FuncSetAttribute, us(2.5, 0.3));
    m_timeline.launchKernel(kBw, KernelId::FlashBackwardDqDkDv, kCompute, us(140));
    m_timeline.launchKernel(kBw, KernelId::FlashBackwardConvertDq, kCompute, us(5));
    m_timeline.closeOp(inner);
    m_timeline.closeOp(outer);
}

void TrainingStepSimulator::backwardSimple(const SavedNode& node)
{
    struct Step
    {
        std::string_view op;
        KernelId kernel;
        double kernelUs;
        std::int64_t gradBytes;
    };

    Step step {};
    switch (node.kind) {
    case NodeKind::Split:
        step = { "aten::cat", KernelId::Cat, 10, T * 3 * H * kHalf };
        break;
    case NodeKind::Gelu:
        step = { "aten::gelu_backward", KernelId::GeluBackward, 20, T * 4 * H * kHalf };
        break;
    case NodeKind::Dropout:
        step = { "aten::native_dropout_backward", KernelId::DropoutBackward, 8, T * H * kHalf };
        break;
    case NodeKind::LogSoftmax:
        step = { "aten::_log_softmax_backward_data", KernelId::LogSoftmaxBackward, 120, T * V * kHalf };
        break;
    case NodeKind::NllLoss: {
        const int op = open(kBw, "aten::nll_loss_backward", m_texts.nll);
        newGrad(T * V * kHalf);
        const int zero = open(kBw, "aten::zero_", m_texts.logits);
        m_timeline.memset(kBw, kCompute, T * V * kHalf);
        m_timeline.closeOp(zero);
        m_timeline.launchKernel(kBw, KernelId::NllLossBackward, kCompute, us(4));
        m_timeline.closeOp(op);
        return;
    }
    default: // Add, Clone: the gradient passes through without device work
        m_timeline.work(kBw, us(3));
        return;
    }
    const int op = open(kBw, step.op, m_texts.activation);
    newGrad(step.gradBytes);
    m_timeline.launchKernel(kBw, step.kernel, kCompute, us(step.kernelUs));
    m_timeline.closeOp(op);
}

void TrainingStepSimulator::backwardEmbedding()
{
    const int outer = open(kBw, "aten::embedding_backward", m_texts.embedding);
    const int dense = open(kBw, "aten::embedding_dense_backward", m_texts.embedding);
    const int zeros = open(kBw, "aten::zeros", m_texts.embedding);
    const int zero = open(kBw, "aten::zero_", m_texts.embedding);
    m_timeline.memset(kBw, kCompute, V * H * 4);
    m_timeline.closeOp(zero);
    m_timeline.closeOp(zeros);
    m_timeline.launchKernel(kBw, KernelId::EmbeddingBackward, kCompute, us(45));
    m_timeline.closeOp(dense);
    m_timeline.closeOp(outer);
}

void TrainingStepSimulator::accumulateGrad(int parameters)
{
    for (int i = 0; i < parameters; ++i) {
        const int evaluate =
            open(kBw, "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad");
        const int accumulate = open(kBw, "torch::autograd::AccumulateGrad");
        const int detach = open(kBw, "aten::detach");
        leaf(kBw, "detach", us(1.5));
        m_timeline.closeOp(detach);
        m_timeline.closeOp(accumulate);
        m_timeline.closeOp(evaluate);
    }
}

void TrainingStepSimulator::allReduce(
    int k, const std::int64_t* collectiveEnds, std::vector<std::int64_t>& arrivals)
{
    const auto index = static_cast<std::size_t>(k);
    const int c10d = open(kBw, "c10d::allreduce_");
    const int comms = open(kBw, "record_param_comms", m_texts.comms[index]);
    m_timeline.setCollectiveSeq(comms, m_collectiveSeq++);
    m_timeline.runtimeCall(kBw, RuntimeApi::StreamIsCapturing, us(1.2, 0.3));
    // ProcessGroupNCCL orders the comm stream after the gradients' producer.
    const EventMark gradsReady = m_timeline.recordEvent(kBw, kCompute);
    m_timeline.streamWaitEvent(kBw, kComm, gradsReady);
    const int annotation = m_timeline.openOp(kBw, RecordKind::UserAnnotation, name("nccl:all_reduce"));
    m_timeline.work(kBw, us(4, 0.3));
    m_timeline.closeOp(annotation);

    const int span = m_timeline.openGpuSpan(kComm);
    std::int64_t previousEnd = 0;
    std::int64_t end = 0;
    if (collectiveEnds) {
        previousEnd = k == 0 ? m_lastCollectiveEnd : collectiveEnds[index - 1];
        end = collectiveEnds[index];
    }
    arrivals[index] = m_timeline.launchCollective(
        kBw, kComm, m_texts.commKernel[index], gradsReady.readyAt, previousEnd, end);
    const StepRecord& label = m_timeline.record(annotation);
    m_timeline.closeGpuSpan(span, label.name, label.externalId);
    m_commDone = m_timeline.recordEvent(kBw, kComm); // the work's end event
    m_timeline.closeOp(comms);
    m_timeline.closeOp(c10d);
}

void TrainingStepSimulator::finalizeBackward(std::int64_t lastCollectiveEnd)
{
    // The comm end event completes when the last all-reduce does; planning
    // could not know that yet when the event was recorded.
    EventMark commDone = m_commDone;
    commDone.readyAt = lastCollectiveEnd;
    m_lastCollectiveEnd = lastCollectiveEnd;

    const int finalize = m_timeline.openOp(
        kBw, RecordKind::UserAnnotation, name("torch.distributed.ddp.reducer::finalize_backward"));
    m_timeline.streamWaitEvent(kBw, kCompute, commDone);
    for (int k = 0; k < m_shape.collectivesPerStep(); ++k) {
        const int bucket = open(kBw, "torch.distributed.ddp.reducer::copy_bucket_to_grad");
        const int copy = open(kBw, "aten::copy_", m_texts.activation);
        m_timeline.memcpy(kBw, MemcpyKind::DtoD, kCompute, m_shape.collectiveElements(k) * 4, 950.0);
        m_timeline.closeOp(copy);
        m_timeline.closeOp(bucket);
    }
    if (m_pendingGradBytes > 0)
        m_timeline.release(kBw, m_pendingGrad, m_pendingGradBytes);
    m_pendingGradBytes = 0;
    m_timeline.closeOp(finalize);

    m_timeline.setNow(kMain, std::max(m_timeline.now(kMain), m_timeline.now(kBw)) + us(8, 0.3));
    pythonClose(m_backwardPython);
    closeAnnotation(m_backwardOp, m_backwardSpan);
}

void TrainingStepSimulator::optimizerStep()
{
    int span = -1;
    const int step = annotate("Optimizer.step#AdamW.step", &span);
    const int wrapper = pythonOpen("torch/optim/optimizer.py(385): wrapper");
    const int adamw = pythonOpen("torch/optim/adamw.py(187): step");
    leaf(kMain, "aten::_foreach_add_", us(25, 0.2), m_texts.adam);
    const int fused = open(kMain, "aten::_fused_adamw_", m_texts.adam);
    // Fused AdamW streams ~16 bytes per parameter at ~1.6 TB/s, in chunks of tensors.
    std::int64_t parameters = 0;
    for (int k = 0; k < m_shape.collectivesPerStep(); ++k)
        parameters += m_shape.collectiveElements(k);
    const int chunks = 2 + m_shape.layers / 4;
    const double chunkUs = static_cast<double>(parameters) * 1e-5 / chunks;
    for (int c = 0; c < chunks; ++c)
        m_timeline.launchKernel(kMain, KernelId::MultiTensorApply, kCompute, us(chunkUs, 0.05));
    m_timeline.closeOp(fused);
    pythonClose(adamw);
    pythonClose(wrapper);
    closeAnnotation(step, span);
}

void TrainingStepSimulator::logLoss(int step)
{
    // Periodic timing code: torch.cuda.synchronize() or an event wait.
    if (step % 8 == 7) {
        m_timeline.deviceSynchronize(kMain);
    } else if (step % 4 == 3) {
        const EventMark done = m_timeline.recordEvent(kMain, kCompute);
        m_timeline.eventSynchronize(kMain, done);
    }
    // loss.item(): a tiny device-to-host copy, then the host waits for the stream.
    const int item = open(kMain, "aten::item", m_texts.activation);
    const int dense = open(kMain, "aten::_local_scalar_dense", m_texts.activation);
    m_timeline.memcpy(kMain, MemcpyKind::DtoH, kCompute, 2, 1.0);
    m_timeline.streamSynchronize(kMain, kCompute);
    m_timeline.closeOp(dense);
    m_timeline.closeOp(item);
}

} // namespace ks::core
