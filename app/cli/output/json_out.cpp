#include "app/cli/output/json_out.h"

#include "core/common/json_text.h"

namespace ks::cli {

std::string jsonQuote(std::string_view text)
{
    return core::jsonString(text);
}

} // namespace ks::cli
