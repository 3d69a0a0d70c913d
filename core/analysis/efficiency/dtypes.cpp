#include "core/analysis/efficiency/dtypes.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace ks::core {

namespace {

    struct DtypeInfo
    {
        std::string_view name; // lower case
        double bytes;
        std::string_view precision;
    };

    // TraceLens's rows first ("unsigned char" is an fp8 payload there, kept so),
    // then the types it has no size for.
    constexpr std::array kDtypes {
        DtypeInfo { "double", 8, "fp64" },
        DtypeInfo { "long int", 8, "" },
        DtypeInfo { "float", 4, "fp32" },
        DtypeInfo { "scalar", 4, "" },
        DtypeInfo { "c10::half", 2, "fp16" },
        DtypeInfo { "c10::bfloat16", 2, "bf16" },
        DtypeInfo { "c10::float8_e4m3fnuz", 1, "fp8" },
        DtypeInfo { "c10::float8_e4m3fn", 1, "fp8" },
        DtypeInfo { "c10::float8_e5m2", 1, "fp8" },
        DtypeInfo { "c10::float8_e5m2fnuz", 1, "fp8" },
        DtypeInfo { "unsigned char", 1, "fp8" },
        DtypeInfo { "signed char", 1, "int8" },
        DtypeInfo { "fp8", 1, "fp8" },
        DtypeInfo { "c10::float4_e2m1fn_x2", 1, "fp4" },
        DtypeInfo { "long", 8, "" },
        DtypeInfo { "long long", 8, "" },
        DtypeInfo { "int", 4, "" },
        DtypeInfo { "unsigned int", 4, "" },
        DtypeInfo { "short int", 2, "" },
        DtypeInfo { "short", 2, "" },
        DtypeInfo { "bool", 1, "" },
        DtypeInfo { "c10::complex<float>", 8, "fp32" },
        DtypeInfo { "c10::complex<double>", 16, "fp64" },
    };

    const DtypeInfo* find(std::string_view type)
    {
        std::string lower(type);
        std::transform(lower.begin(), lower.end(), lower.begin(),
            [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        for (const DtypeInfo& d : kDtypes)
            if (d.name == lower)
                return &d;
        return nullptr;
    }

} // namespace

std::optional<double> bytesPerElement(std::string_view type)
{
    const DtypeInfo* d = find(type);
    return d ? std::optional<double>(d->bytes) : std::nullopt;
}

std::string precisionOf(std::string_view type)
{
    const DtypeInfo* d = find(type);
    return d ? std::string(d->precision) : std::string();
}

} // namespace ks::core
