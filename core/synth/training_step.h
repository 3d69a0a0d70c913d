#pragma once

#include "core/synth/step_record.h"
#include "core/synth/step_texts.h"
#include "core/synth/synth_rng.h"
#include "core/synth/trace_timeline.h"
#include "core/synth/trace_vocabulary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

// The job every rank runs: a GPT-style decoder (hidden 1024, 2048 tokens per
// step, vocabulary 32000) trained with DDP. `layers` scales the step size.
struct SynthJobShape
{
    static constexpr std::int64_t kTokens = 2048;
    static constexpr std::int64_t kHidden = 1024;
    static constexpr std::int64_t kVocab = 32000;
    static constexpr std::int64_t kPositions = 512;

    int layers = 4;
    int worldSize = 1;
    int firstStep = 1; // number of the first ProfilerStep
    bool python = true;
    std::uint64_t seed = 1;
    std::vector<int> stragglers; // ranks whose compute kernels take `slowdown` times longer
    double slowdown = 1.0;

    // One DDP bucket per layer, plus the head (final norm + lm head) and the embeddings.
    int collectivesPerStep() const { return layers + 2; }

    // How much longer this rank's compute kernels take than a healthy rank's.
    double computeScale(int rank) const;

    // Gradient elements all-reduced by collective k of a step (backward order).
    std::int64_t collectiveElements(int k) const;
};

// Simulates one rank, step by step, as records. A step runs in two phases so
// that ranks can be coordinated: phase A (data loading, forward, backward with
// the DDP all-reduce launches) does not depend on when collectives finish;
// phase B (DDP finalize, optimizer, loss.item()) does. Each phase draws from
// its own seeded random stream, so re-running a rank reproduces it exactly,
// and a copy of the simulator can run phase A ahead to find the arrivals.
class TrainingStepSimulator
{
public:
    // `texts` must outlive the simulator (one per job, shared by all ranks).
    TrainingStepSimulator(const SynthJobShape& shape, int rank, const StepTexts& texts);

    const RankLayout& layout() const { return m_layout; }

    const NameTable& names() const { return m_names; }

    const std::vector<std::string>& texts() const { return m_texts.texts; }

    std::int64_t profilerStart() const { return m_profilerStart; }

    std::int64_t nextStepStart() const { return m_nextStepStart; }

    // `collectiveEnds`: when each of this step's collectives ends (all ranks
    // agree), or nullptr while planning. `arrivals` receives, per collective,
    // when this rank's NCCL kernel could start.
    void runForwardBackward(
        int step, const std::int64_t* collectiveEnds, StepRecords& out, std::vector<std::int64_t>& arrivals);
    void runOptimizer(int step, std::int64_t lastCollectiveEnd, StepRecords& out);

private:
    enum class NodeKind : std::uint8_t
    {
        Embedding,
        LayerNorm,
        Addmm,
        Mm,
        FlashAttention,
        Clone,
        Split,
        Gelu,
        Dropout,
        Add,
        LogSoftmax,
        NllLoss,
    };

    // A forward op that created an autograd node; backward replays these in reverse.
    struct SavedNode
    {
        NodeKind kind;
        int group; // 0 embeddings, 1..layers blocks, layers+1 head and loss
        std::int64_t sequence;
        std::int64_t flowId;
        std::uint64_t addr; // activation saved for backward
        std::int64_t bytes;
        std::int64_t gemmUs; // forward GEMM time, for Addmm / Mm
    };

    struct ForwardOp
    {
        int handle;
        std::int64_t sequence;
        std::int64_t flowId;
    };

    std::uint32_t name(std::string_view text) { return m_names.intern(text); }

    // Host-side building blocks.
    int open(HostThread t, std::string_view op, int text = -1);
    void leaf(HostThread t, std::string_view op, std::int64_t workNs, int text = -1);
    ForwardOp openForward(std::string_view op, int text);
    void save(NodeKind kind, int group, const ForwardOp& op, std::int64_t bytes, std::int64_t gemmUs = 0);
    int annotate(std::string_view label, int* span);
    void closeAnnotation(int handle, int span);
    int pythonOpen(std::string_view frame);
    void pythonClose(int handle);
    std::int64_t us(double mean, double spread = 0.08);

    // Phase A.
    void loadBatch();
    void zeroGrad();
    void forward();
    void forwardBlock(int layer);
    void forwardLinear(int group, std::string_view module, StepTexts::Linear which, std::int64_t outBytes,
        std::int64_t gemmUs);
    void forwardLayerNorm(int group, std::string_view module);
    void forwardAttentionCore(int group);
    void forwardElementwise(int group, NodeKind kind);
    void forwardHeadAndLoss();
    void backward(const std::int64_t* collectiveEnds, std::vector<std::int64_t>& arrivals);
    void backwardNode(const SavedNode& node);
    void backwardGemm(const SavedNode& node);
    void backwardLayerNorm();
    void backwardAttention();
    void backwardSimple(const SavedNode& node);
    void backwardEmbedding();
    void accumulateGrad(int parameters);
    void newGrad(std::int64_t bytes);
    static std::string_view backwardName(NodeKind kind);
    void allReduce(int k, const std::int64_t* collectiveEnds, std::vector<std::int64_t>& arrivals);

    // Phase B.
    void finalizeBackward(std::int64_t lastCollectiveEnd);
    void optimizerStep();
    void logLoss(int step);

    SynthJobShape m_shape;
    RankLayout m_layout;
    NameTable m_names;
    const StepTexts& m_texts;
    TraceTimeline m_timeline;
    SynthRng* m_rng = nullptr;

    std::int64_t m_profilerStart = 0;
    std::int64_t m_nextStepStart = 0;
    std::int64_t m_nextSequence = 0;
    std::int64_t m_collectiveSeq = 0;
    std::int64_t m_lastCollectiveEnd = 0;
    std::vector<SavedNode> m_saved;
    std::uint64_t m_pendingGrad = 0;
    std::int64_t m_pendingGradBytes = 0;
    EventMark m_commDone;

    // Ops and spans open across the phase boundary.
    int m_stepOp = -1;
    int m_stepSpan = -1;
    int m_backwardOp = -1;
    int m_backwardSpan = -1;
    int m_trainPython = -1;
    int m_backwardPython = -1;
};

} // namespace ks::core
