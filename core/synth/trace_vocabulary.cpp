#include "core/synth/trace_vocabulary.h"

#include <array>
#include <cassert>

namespace ks::core {

namespace {

    struct LaunchConfig
    {
        std::string_view name;
        int registers;
        int sharedMemory;
        std::string_view blocksPerSm; // Kineto prints these floats with 6 decimals
        std::string_view warpsPerSm;
        std::array<int, 3> grid;
        std::array<int, 3> block;
        int occupancy;
    };

    // clang-format off
constexpr std::array<LaunchConfig, static_cast<std::size_t>(KernelId::Count)> kKernels = {{
    {"ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_tn", 238, 81920, "1.185185", "9.481481", {32, 16, 1}, {256, 1, 1}, 12},
    {"ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn", 234, 98304, "1.185185", "9.481481", {16, 32, 1}, {256, 1, 1}, 12},
    {"sm80_xmma_gemm_f16f16_f16f32_f32_nt_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel", 218, 65536, "2.370370", "9.481481", {8, 64, 2}, {128, 1, 1}, 12},
    {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::Half, float>(int, float, c10::Half const*, c10::Half const*, c10::Half const*, float*, float*, c10::Half*)", 32, 0, "18.962963", "37.925926", {2048, 1, 1}, {32, 2, 1}, 59},
    {"void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<c10::Half, float>(c10::Half const*, c10::Half const*, float const*, float const*, c10::Half const*, c10::Half*, int)", 40, 0, "18.962963", "151.703705", {2048, 1, 1}, {256, 1, 1}, 88},
    {"void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel<c10::Half, float>(long, long, c10::Half const*, c10::Half const*, float const*, float const*, c10::Half*, c10::Half*)", 64, 4352, "0.296296", "4.740741", {32, 1, 1}, {32, 16, 1}, 23},
    {"void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, cutlass::half_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::half_t> >, false, true, false, false, true, true, false>(pytorch_flash::Flash_fwd_params)", 255, 49152, "2.370370", "9.481481", {4, 8, 16}, {128, 1, 1}, 12},
    {"void pytorch_flash::flash_bwd_dot_do_o_kernel<true, pytorch_flash::Flash_bwd_kernel_traits<64, 128, 128, 8, 2, 4, 2, false, false, cutlass::half_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 8, cutlass::half_t> > >(pytorch_flash::Flash_bwd_params)", 40, 0, "4.740741", "37.925926", {4, 8, 16}, {256, 1, 1}, 59},
    {"void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<pytorch_flash::Flash_bwd_kernel_traits<64, 128, 128, 8, 2, 4, 2, false, false, cutlass::half_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 8, cutlass::half_t> >, true, false, false, false, false, true, false>(pytorch_flash::Flash_bwd_params)", 255, 81920, "4.740741", "37.925926", {4, 8, 16}, {256, 1, 1}, 25},
    {"void pytorch_flash::flash_bwd_convert_dq_kernel<pytorch_flash::Flash_bwd_kernel_traits<64, 128, 128, 8, 2, 4, 2, false, false, cutlass::half_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 8, cutlass::half_t> > >(pytorch_flash::Flash_bwd_params, int)", 30, 24576, "4.740741", "37.925926", {4, 8, 16}, {256, 1, 1}, 66},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::Half)#1}, at::detail::Array<char*, 2> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::Half)#1}, at::detail::Array<char*, 2>)", 26, 0, "151.703705", "48.000000", {16384, 1, 1}, {128, 1, 1}, 81},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::Half, c10::Half)#1}, at::detail::Array<char*, 3> >(int, at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::Half, c10::Half)#1}, at::detail::Array<char*, 3>)", 30, 0, "151.703705", "48.000000", {16384, 1, 1}, {128, 1, 1}, 80},
    {"void at::native::(anonymous namespace)::fused_dropout_kernel_vec<c10::Half, float, unsigned int, 1, 8, bool>(at::cuda::detail::TensorInfo<c10::Half const, unsigned int>, at::cuda::detail::TensorInfo<c10::Half, unsigned int>, at::cuda::detail::TensorInfo<bool, unsigned int>, unsigned int, float, at::PhiloxCudaState)", 30, 0, "8.000000", "64.000000", {864, 1, 1}, {256, 1, 1}, 97},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::masked_scale_kernel<bool, c10::Half, float>(at::Tensor&, at::Tensor const&, at::Tensor const&, float)::{lambda(c10::Half, bool)#1}, at::detail::Array<char*, 3> >(int, at::native::(anonymous namespace)::masked_scale_kernel<bool, c10::Half, float>(at::Tensor&, at::Tensor const&, at::Tensor const&, float)::{lambda(c10::Half, bool)#1}, at::detail::Array<char*, 3>)", 24, 0, "37.925926", "48.000000", {4096, 1, 1}, {128, 1, 1}, 82},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::Half>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::Half>, at::detail::Array<char*, 3>)", 24, 0, "37.925926", "48.000000", {4096, 1, 1}, {128, 1, 1}, 83},
    {"void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(c10::Half)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(c10::Half)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)", 28, 0, "151.703705", "48.000000", {16384, 1, 1}, {128, 1, 1}, 79},
    {"void at::native::(anonymous namespace)::CatArrayBatchedCopy_aligned16_contig<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 2, 128, 1>(at::native::(anonymous namespace)::OpaqueType<2u>*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 128, 1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)", 32, 0, "16.000000", "64.000000", {1728, 3, 1}, {128, 1, 1}, 94},
    {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::Half, at::native::func_wrapper_t<c10::Half, at::native::sum_functor<c10::Half, float, c10::Half>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, c10::Half, 4> >(at::native::ReduceOp<c10::Half, at::native::func_wrapper_t<c10::Half, at::native::sum_functor<c10::Half, float, c10::Half>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, c10::Half, 4>)", 32, 16, "3.555556", "56.888889", {32, 12, 1}, {32, 16, 1}, 88},
    {"void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::Half, long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<c10::Half, unsigned int>, at::cuda::detail::TensorInfo<c10::Half const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)", 24, 0, "8.000000", "64.000000", {864, 1, 1}, {512, 1, 1}, 95},
    {"void at::native::(anonymous namespace)::embedding_backward_feature_kernel<c10::Half, float, long>(long const*, c10::Half const*, c10::Half*, int, long, int)", 40, 4224, "4.740741", "37.925926", {32, 1, 1}, {32, 32, 1}, 58},
    {"void (anonymous namespace)::softmax_warp_forward<c10::Half, c10::Half, float, 10, true, false>(c10::Half*, c10::Half const*, int, int, int, bool const*, int, bool)", 40, 0, "16.000000", "64.000000", {1024, 1, 1}, {32, 4, 1}, 94},
    {"void (anonymous namespace)::softmax_warp_backward<c10::Half, c10::Half, float, 10, true, false>(c10::Half*, c10::Half const*, c10::Half const*, int, int, int, bool const*)", 40, 0, "16.000000", "64.000000", {1024, 1, 1}, {32, 4, 1}, 93},
    {"void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<c10::Half, float, long>(c10::Half*, c10::Half*, c10::Half const*, long const*, c10::Half const*, bool, long, long, long, long)", 30, 8192, "0.009259", "0.296296", {1, 1, 1}, {1024, 1, 1}, 0},
    {"void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<c10::Half, long>(c10::Half*, c10::Half const*, long const*, c10::Half const*, c10::Half const*, bool, int, int, long, long)", 26, 0, "0.009259", "0.296296", {1, 1, 1}, {1024, 1, 1}, 0},
    {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, double, double, double, double, double, bool, float*, float*>(at::native::(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, double, double, double, double, double, bool, float*, float*)", 96, 0, "6.000000", "48.000000", {320, 1, 1}, {512, 1, 1}, 71},
    {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", 96, 87568, "0.185185", "3.148148", {20, 1, 1}, {544, 1, 1}, 0},
}};

constexpr std::array<RuntimeSpec, static_cast<std::size_t>(RuntimeApi::Count)> kRuntime = {{
    {"cudaLaunchKernel", 211},
    {"cudaMemcpyAsync", 41},
    {"cudaMemsetAsync", 51},
    {"cudaStreamSynchronize", 131},
    {"cudaDeviceSynchronize", 165},
    {"cudaEventSynchronize", 137},
    {"cudaEventRecord", 135},
    {"cudaStreamWaitEvent", 147},
    {"cudaStreamIsCapturing", 317},
    {"cudaFuncSetAttribute", 239},
}};

    // clang-format on

    std::string renderLaunchArgs(const LaunchConfig& config)
    {
        auto triple = [](const std::array<int, 3>& v) {
            std::string text = "[";
            text += std::to_string(v[0]);
            text += ", ";
            text += std::to_string(v[1]);
            text += ", ";
            text += std::to_string(v[2]);
            text += ']';
            return text;
        };
        std::string text;
        text += "\"registers per thread\": " + std::to_string(config.registers);
        text += ",      \"shared memory\": " + std::to_string(config.sharedMemory);
        text += ",      \"blocks per SM\": " + std::string(config.blocksPerSm);
        text += ",      \"warps per SM\": " + std::string(config.warpsPerSm);
        text += ",      \"grid\": " + triple(config.grid);
        text += ",      \"block\": " + triple(config.block);
        text += ",      \"est. achieved occupancy %\": " + std::to_string(config.occupancy);
        return text;
    }

    const std::array<KernelSpec, static_cast<std::size_t>(KernelId::Count)>& kernelSpecs()
    {
        // Built once; thread-safe initialisation of a function-local static.
        static const auto specs = [] {
            std::array<KernelSpec, static_cast<std::size_t>(KernelId::Count)> out;
            for (std::size_t i = 0; i < kKernels.size(); ++i)
                out[i] = KernelSpec { kKernels[i].name, renderLaunchArgs(kKernels[i]) };
            return out;
        }();
        return specs;
    }

} // namespace

const KernelSpec& kernelSpec(KernelId id)
{
    return kernelSpecs()[static_cast<std::size_t>(id)];
}

const RuntimeSpec& runtimeSpec(RuntimeApi api)
{
    return kRuntime[static_cast<std::size_t>(api)];
}

std::uint32_t NameTable::intern(std::string_view name)
{
    std::string key(name);
    if (auto it = m_index.find(key); it != m_index.end())
        return it->second;
    for ([[maybe_unused]] const char c : name)
        assert(c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20);
    const auto index = static_cast<std::uint32_t>(m_names.size());
    m_names.push_back(key);
    m_index.emplace(std::move(key), index);
    return index;
}

} // namespace ks::core
