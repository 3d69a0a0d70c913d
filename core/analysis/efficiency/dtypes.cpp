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
        bool tracelensSize; // in TraceLens's name2bpe
        std::string_view tracelensPrecision; // TraceLens's torch_dtype_map ("" when absent)
    };

    // TraceLens's rows first ("unsigned char" is an fp8 payload there, kept so),
    // then the types it has no size for.
    constexpr std::array kDtypes {
        DtypeInfo { "double", 8, "fp64", true, "fp64" },
        DtypeInfo { "long int", 8, "", true, "" },
        DtypeInfo { "float", 4, "fp32", true, "fp32" },
        DtypeInfo { "scalar", 4, "", true, "" },
        DtypeInfo { "int", 4, "", true, "" },
        DtypeInfo { "c10::half", 2, "fp16", true, "fp16" },
        DtypeInfo { "c10::bfloat16", 2, "bf16", true, "bf16" },
        DtypeInfo { "c10::float8_e4m3fnuz", 1, "fp8", true, "fp8" },
        DtypeInfo { "c10::float8_e4m3fn", 1, "fp8", true, "fp8" },
        DtypeInfo { "c10::float8_e5m2", 1, "fp8", true, "" },
        DtypeInfo { "c10::float8_e8m0fnu", 1, "", true, "" }, // a scale format: no peak
        DtypeInfo { "unsigned char", 1, "fp8", true, "fp8" },
        DtypeInfo { "signed char", 1, "int8", true, "" },
        DtypeInfo { "fp8", 1, "fp8", true, "fp8" },
        DtypeInfo { "c10::float4_e2m1fn_x2", 1, "fp4", true, "fp4" },
        DtypeInfo { "fp4", 1, "fp4", true, "fp4" },
        DtypeInfo { "c10::float8_e5m2fnuz", 1, "fp8", false, "" },
        DtypeInfo { "long", 8, "", false, "" },
        DtypeInfo { "long long", 8, "", false, "" },
        DtypeInfo { "unsigned int", 4, "", false, "" },
        DtypeInfo { "short int", 2, "", false, "" },
        DtypeInfo { "short", 2, "", false, "" },
        DtypeInfo { "bool", 1, "", false, "" },
        DtypeInfo { "c10::complex<float>", 8, "fp32", false, "" },
        DtypeInfo { "c10::complex<double>", 16, "fp64", false, "" },
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

std::optional<double> bytesPerElement(std::string_view type, DtypeTable table)
{
    const DtypeInfo* d = find(type);
    if (!d || (table == DtypeTable::TraceLens && !d->tracelensSize))
        return std::nullopt;
    return d->bytes;
}

std::string precisionOf(std::string_view type, DtypeTable table)
{
    const DtypeInfo* d = find(type);
    if (!d)
        return {};
    return std::string(table == DtypeTable::TraceLens ? d->tracelensPrecision : d->precision);
}

} // namespace ks::core
