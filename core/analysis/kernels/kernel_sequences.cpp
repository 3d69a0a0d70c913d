#include "core/analysis/kernels/kernel_sequences.h"

#include "core/analysis/kernels/kernel_sequences_call_graph.h"
#include "core/analysis/kernels/kernel_sequences_order.h"
#include "core/analysis/tables/microseconds.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <unordered_map>

namespace ks::core {

namespace {

    using sequences::CallGraph;

    struct PatternTotals
    {
        std::int64_t count = 0;
        std::int64_t gpuNs = 0;
        std::int64_t cpuNs = 0;
        std::set<std::uint32_t> events;
    };

    class Matcher
    {
    public:
        Matcher(const std::string& op, const KernelSequenceOptions& options)
            : m_op(op)
            , m_compat(options.mode == AnalysisMode::HtaCompat)
            , m_regex(options.regex && !m_compat)
        {
            if (m_regex)
                m_pattern = std::regex(op, std::regex::ECMAScript);
        }

        bool matches(std::string_view name) const
        {
            if (m_compat)
                return name.find(m_op) != std::string_view::npos; // Q12: any name containing it
            if (m_regex)
                return std::regex_search(name.begin(), name.end(), m_pattern);
            return name == m_op;
        }

    private:
        std::string m_op;
        bool m_compat;
        bool m_regex;
        std::regex m_pattern;
    };

    // The operators whose sequences count. HTA: candidates of any category, only
    // the shallowest depth, and those need min_pattern_len kernels (a shallow
    // match with fewer kernels hides deeper ones). Default: every CPU operator
    // with the name and enough kernels, nested matches included (Q12).
    std::vector<std::uint32_t> rootRows(const RankFrame& frame, const CallGraph& graph,
        const Matcher& matcher, const KernelSequenceOptions& options)
    {
        const bool compat = options.mode == AnalysisMode::HtaCompat;
        std::vector<std::uint32_t> candidates;
        std::int64_t minDepth = std::numeric_limits<std::int64_t>::max();
        for (std::uint32_t r = 0; r < frame.rows.size(); ++r) {
            const FrameRow& row = frame.rows[r];
            if (!compat && row.device)
                continue;
            if (!matcher.matches(frame.name(row)))
                continue;
            candidates.push_back(r);
            minDepth = std::min(minDepth, graph.rowStack(row.eventIndex).depth);
        }
        std::vector<std::uint32_t> roots;
        for (std::uint32_t r : candidates) {
            const sequences::RowStack s = graph.rowStack(frame.rows[r].eventIndex);
            if ((!compat || s.depth == minDepth) && s.numKernels >= options.minPatternLength)
                roots.push_back(r);
        }
        return roots;
    }

    Table emptyHtaFrame()
    {
        Table t; // HTA returns pd.DataFrame(): no columns but its index
        t.name = "get_frequent_cuda_kernel_sequences";
        t.columns = { { "index", "" } };
        t.indexColumns = { "index" };
        return t;
    }

    Table patternTable(const std::vector<KernelPattern>& patterns)
    {
        Table t;
        t.name = "get_frequent_cuda_kernel_sequences";
        t.columns = { { "pattern", "" }, { "count", "" }, { "GPU kernel duration (us)", "us" },
            { "CPU op duration (us)", "us" } };
        for (const KernelPattern& p : patterns)
            t.addRow({ p.pattern, p.count, microseconds(p.gpuDurationNs), microseconds(p.cpuDurationNs) });
        return t;
    }

    class PatternFinder
    {
    public:
        PatternFinder(const RankFrame& frame, const CallGraph& graph, const KernelSequenceOptions& options)
            : m_frame(frame)
            , m_graph(graph)
            , m_compat(options.mode == AnalysisMode::HtaCompat)
        {
            for (std::uint32_t r = 0; r < frame.rows.size(); ++r)
                m_rowsOfEvent[frame.rows[r].eventIndex].push_back(r);
        }

        Result<bool> add(std::uint32_t rootRow);
        std::vector<KernelPattern> patterns() const;

    private:
        std::vector<std::uint32_t> kernelsUnder(const std::vector<std::int64_t>& events) const;

        const RankFrame& m_frame;
        const CallGraph& m_graph;
        bool m_compat;
        std::unordered_map<std::int64_t, std::vector<std::uint32_t>> m_rowsOfEvent;
        std::map<std::vector<std::string_view>, PatternTotals> m_totals;
    };

    // The kernels of a set of events, in time order (HTA: the stack's rows sorted
    // by ts, then the GPU rows of it sorted by ts again).
    std::vector<std::uint32_t> PatternFinder::kernelsUnder(const std::vector<std::int64_t>& events) const
    {
        std::vector<std::uint32_t> rows;
        for (std::int64_t e : events)
            if (auto it = m_rowsOfEvent.find(e); it != m_rowsOfEvent.end())
                rows.insert(rows.end(), it->second.begin(), it->second.end());
        std::vector<std::uint32_t> kernels;
        for (std::uint32_t r : rows)
            if (m_compat ? m_frame.rows[r].stream != -1 : m_frame.rows[r].device)
                kernels.push_back(r);
        std::stable_sort(kernels.begin(), kernels.end(), [this](std::uint32_t a, std::uint32_t b) {
            const FrameRow& x = m_frame.rows[a];
            const FrameRow& y = m_frame.rows[b];
            return x.ts != y.ts ? x.ts < y.ts : x.eventIndex < y.eventIndex;
        });
        return kernels;
    }

    Result<bool> PatternFinder::add(std::uint32_t rootRow)
    {
        const FrameRow& root = m_frame.rows[rootRow];
        std::vector<std::int64_t> events;
        if (m_compat && root.stream > 0) {
            events.push_back(root.eventIndex); // HTA: a GPU row stands for itself
        } else {
            const ThreadKey& key = m_frame.trace->tracks[m_frame.trace->trackOf(root.slice).value].key;
            if (m_compat && !m_graph.stackOf(key))
                return Error { ErrorCode::NotApplicable,
                    "HTA fails: no call stack for the thread of event " + std::to_string(root.eventIndex), {},
                    {} };
            for (std::int64_t e : m_graph.descendants(root.eventIndex))
                if (e >= 0)
                    events.push_back(e);
        }
        std::vector<std::string_view> key { m_frame.name(root) };
        for (std::uint32_t k : kernelsUnder(events))
            key.push_back(m_frame.name(m_frame.rows[k]));
        PatternTotals& t = m_totals[key];
        ++t.count;
        t.gpuNs += m_graph.rowStack(root.eventIndex).kernelDurNs;
        t.cpuNs += root.dur;
        for (std::int64_t e : events)
            t.events.insert(static_cast<std::uint32_t>(e));
        return true;
    }

    std::vector<KernelPattern> PatternFinder::patterns() const
    {
        std::vector<KernelPattern> out;
        for (const auto& [names, totals] : m_totals) {
            KernelPattern p;
            for (std::size_t i = 0; i < names.size(); ++i)
                p.pattern += (i ? "|" : "") + std::string(names[i]);
            p.count = totals.count;
            p.gpuDurationNs = totals.gpuNs;
            p.cpuDurationNs = totals.cpuNs;
            p.eventIndices.assign(totals.events.begin(), totals.events.end());
            out.push_back(std::move(p));
        }
        std::sort(out.begin(), out.end(), [](const KernelPattern& a, const KernelPattern& b) {
            return a.count != b.count ? a.count > b.count : a.pattern < b.pattern;
        });
        return out;
    }

} // namespace

KernelSequences kernelSequences(const FrameSet& frames, std::int64_t rank, const std::string& operatorName,
    const KernelSequenceOptions& options)
{
    KernelSequences out;
    out.rank = rank;
    const bool compat = options.mode == AnalysisMode::HtaCompat;
    const auto frame = std::find_if(
        frames.ranks.begin(), frames.ranks.end(), [rank](const RankFrame& f) { return f.rank == rank; });
    if (frame == frames.ranks.end()) {
        out.output = AnalysisOutput::notApplicable("no rank " + std::to_string(rank) + " in the trace");
        return out;
    }
    if (operatorName.empty()) {
        out.output = AnalysisOutput::of(HtaResult::dataFrame(compat ? emptyHtaFrame() : patternTable({})));
        return out;
    }
    std::optional<Matcher> matcher;
    try {
        matcher.emplace(operatorName, options);
    } catch (const std::regex_error& e) {
        out.output = AnalysisOutput::notApplicable(
            "not a regular expression: " + operatorName + " (" + e.what() + ")");
        return out;
    }
    auto graph = sequences::buildCallGraph(*frame, options.mode);
    if (!graph) {
        out.output = AnalysisOutput::notApplicable(graph.error().message);
        return out;
    }
    PatternFinder finder(*frame, graph.value(), options);
    for (std::uint32_t r : rootRows(*frame, graph.value(), *matcher, options)) {
        if (auto added = finder.add(r); !added) {
            out.output = AnalysisOutput::notApplicable(added.error().message);
            return out;
        }
    }
    out.patterns = finder.patterns();
    if (out.patterns.empty() && compat) // HTA logs "operator_name not found" and returns an empty frame
        out.output = AnalysisOutput::of(HtaResult::dataFrame(emptyHtaFrame()));
    else
        out.output = AnalysisOutput::of(HtaResult::dataFrame(patternTable(out.patterns)));
    return out;
}

std::string kernelSequencesFileName(const std::string& operatorName)
{
    std::string stem;
    for (std::size_t i = 0; i < operatorName.size(); ++i) {
        const char c = operatorName[i];
        if (c == ':' && i + 1 < operatorName.size() && operatorName[i + 1] == ':') {
            stem += '_';
            ++i;
        } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') {
            stem += c;
        } else {
            stem += '_';
        }
    }
    return "get_frequent_cuda_kernel_sequences__" + stem + ".json";
}

} // namespace ks::core
