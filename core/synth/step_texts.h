#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

struct SynthJobShape;

// Pre-rendered args text shared by every rank of a job: input shapes
// (record_shapes) of the ops, and collective parameters. Built once per job
// so even thousands of simulated ranks share one copy.
struct StepTexts
{
    enum Linear
    {
        kQkv,
        kOutProj,
        kFc1,
        kFc2,
        kLmHead,
        kLinearCount
    };

    std::vector<std::string> texts;
    int linear[kLinearCount] {};
    int addmm[kLinearCount] {};
    int norm = -1;
    int activation = -1;
    int wideActivation = -1;
    int qkv = -1;
    int attention = -1;
    int embedding = -1;
    int logits = -1;
    int nll = -1;
    int batch = -1;
    int adam = -1;
    std::vector<int> comms; // per collective: record_param_comms args ("Rank" is added per rank)
    std::vector<int> commKernel; // per collective: the NCCL kernel's args
};

StepTexts buildStepTexts(const SynthJobShape& shape);

} // namespace ks::core
