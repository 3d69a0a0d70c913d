#include "app/cli/output/troff_text.h"

#include <ostream>

namespace ks::cli {

void writeTroffText(std::ostream& out, std::string_view text)
{
    bool lineStart = true;
    for (const char c : text) {
        if (lineStart && (c == '.' || c == '\''))
            out << "\\&";
        if (c == '\\')
            out << "\\e";
        else if (c == '-')
            out << "\\-";
        else
            out << c;
        lineStart = c == '\n';
    }
}

} // namespace ks::cli
