#include "core/io/store_builder/rank_detection.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

namespace ks::core {

namespace fs = std::filesystem;

std::optional<std::int64_t> rankFromFileName(const std::string& fileName)
{
    const std::string base = fs::path(fileName).filename().string();
    std::string lower(base.size(), '\0');
    std::transform(base.begin(), base.end(), lower.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::optional<std::int64_t> found;
    for (const std::string word : { "rank", "worker" }) {
        for (std::size_t at = lower.find(word); at != std::string::npos; at = lower.find(word, at + 1)) {
            std::size_t i = at + word.size();
            if (i < lower.size() && (lower[i] == '-' || lower[i] == '_'))
                ++i;
            std::size_t j = i;
            while (j < lower.size() && std::isdigit(static_cast<unsigned char>(lower[j])) && j - i < 9)
                ++j;
            if (j > i)
                found = std::stoll(lower.substr(i, j - i));
        }
        if (found)
            return found;
    }
    return std::nullopt;
}

bool isDirectory(const std::string& path)
{
    std::error_code ec;
    return fs::is_directory(path, ec);
}

Result<std::vector<std::string>> listTraceFiles(const std::string& folder)
{
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    if (ec)
        return Error { ErrorCode::Unreadable, "cannot list folder: " + ec.message(), folder, {} };
    std::vector<std::string> files;
    for (const fs::directory_entry& entry : it) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name[0] == '.')
            continue;
        const bool json = name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
        const bool gz = name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0;
        std::error_code typeError;
        if ((json || gz) && !entry.is_directory(typeError))
            files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace ks::core
