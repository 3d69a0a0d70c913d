#include "core/analysis/memory/allocation_pairing.h"

#include <list>
#include <map>
#include <unordered_map>

namespace ks::core {

namespace {

    constexpr std::string_view kUnknown = "<unknown>";

    // The plugin's operator column (run.py): the allocation's op, and for an
    // aten::empty* its parent too, "aten::addmm (aten::empty)". By default a
    // top-level empty has no parent to name (the plugin writes "CallTreeRoot (...)").
    std::string operatorLabel(const RecordOperator& op, bool tbCompat)
    {
        if (op.opName.empty())
            return std::string(kUnknown);
        if (op.opName.substr(0, 11) == "aten::empty" && !op.parentName.empty()
            && (tbCompat || op.parentName != "CallTreeRoot"))
            return std::string(op.parentName) + " (" + std::string(op.opName) + ")";
        return std::string(op.opName);
    }

    // Python's dict: insertion order, an overwritten key keeps its place, a
    // deleted and re-added one goes last.
    template <typename Key>
    class OrderedMap
    {
    public:
        void set(const Key& key, std::uint32_t value)
        {
            auto it = m_index.find(key);
            if (it != m_index.end()) {
                it->second->second = value;
                return;
            }
            m_order.emplace_back(key, value);
            m_index[key] = std::prev(m_order.end());
        }

        std::optional<std::uint32_t> take(const Key& key)
        {
            auto it = m_index.find(key);
            if (it == m_index.end())
                return std::nullopt;
            const std::uint32_t value = it->second->second;
            m_order.erase(it->second);
            m_index.erase(it);
            return value;
        }

        std::optional<std::uint32_t> find(const Key& key) const
        {
            auto it = m_index.find(key);
            return it == m_index.end() ? std::nullopt : std::optional(it->second->second);
        }

        const std::list<std::pair<Key, std::uint32_t>>& inOrder() const { return m_order; }

    private:
        std::list<std::pair<Key, std::uint32_t>> m_order;
        std::map<Key, typename std::list<std::pair<Key, std::uint32_t>>::iterator> m_index;
    };

    struct Pairer
    {
        const MemoryRecords& records;
        const MemoryAttribution& attribution;
        bool tbCompat;

        std::string deviceOf(std::uint32_t r) const
        {
            return memoryDeviceName(records.records[r].device, tbCompat).value_or("");
        }

        std::string freeOpOf(std::uint32_t r) const
        {
            const RecordOperator& op = attribution.ofRecord[r];
            return op.node == kNoNode ? std::string() : std::string(op.nodeName);
        }

        AllocationRow row(std::optional<std::uint32_t> alloc, std::optional<std::uint32_t> free) const
        {
            AllocationRow out;
            if (alloc) {
                out.device = deviceOf(*alloc);
                out.op = operatorLabel(attribution.ofRecord[*alloc], tbCompat);
                out.allocated = records.records[*alloc].ts;
                out.allocRecord = alloc;
            } else {
                out.device = deviceOf(*free);
                out.op = std::string(kUnknown);
            }
            if (free) {
                out.released = records.records[*free].ts;
                out.freeRecord = free;
                out.size = -records.records[*free].bytes;
            } else {
                out.size = records.records[*alloc].bytes;
            }
            out.kind = alloc && free ? AllocationKind::Paired
                                     : (alloc ? AllocationKind::NeverFreed : AllocationKind::FreedOnly);
            return out;
        }
    };

    using DeviceAddr = std::pair<MemoryDevice, std::int64_t>;

} // namespace

AllocationPairing pairAllocations(const MemoryRecords& records, const MemoryAttribution& attribution,
    bool tbCompat, const std::optional<MemoryRange>& range)
{
    AllocationPairing out;
    const Pairer pairer { records, attribution, tbCompat };
    std::vector<AllocationRow> neverFreedEarly; // default mode: an allocation overwritten while open
    if (tbCompat) {
        OrderedMap<std::int64_t> open, freedOnly;
        for (std::uint32_t r = 0; r < records.records.size(); ++r) {
            const MemoryRecord& rec = records.records[r];
            if (range && (rec.ts < range->start || rec.ts > range->end))
                continue;
            if (!rec.hasAddr) {
                ++out.recordsWithoutAddr;
                continue;
            }
            if (rec.isAllocation())
                open.set(rec.addr, r);
            else if (auto alloc = open.take(rec.addr))
                out.rows.push_back(pairer.row(alloc, r));
            else
                freedOnly.set(rec.addr, r);
        }
        for (const auto& [addr, r] : open.inOrder())
            out.rows.push_back(pairer.row(r, std::nullopt));
        for (const auto& [addr, r] : freedOnly.inOrder())
            out.rows.push_back(pairer.row(std::nullopt, r));
        for (AllocationRow& row : out.rows)
            if (row.freeRecord)
                row.freeOp = pairer.freeOpOf(*row.freeRecord);
        // A device the plugin cannot name (HIP) makes its table fail; shown without those rows.
        std::erase_if(out.rows, [](const AllocationRow& row) { return row.device.empty(); });
        return out;
    }
    OrderedMap<DeviceAddr> open;
    std::vector<std::uint32_t> freedOnly;
    for (std::uint32_t r = 0; r < records.records.size(); ++r) {
        const MemoryRecord& rec = records.records[r];
        if (range && (rec.ts < range->start || rec.ts > range->end))
            continue;
        if (!rec.hasAddr) {
            ++out.recordsWithoutAddr;
            continue;
        }
        const DeviceAddr key { rec.device, rec.addr };
        if (rec.isAllocation()) {
            if (auto earlier = open.take(key))
                neverFreedEarly.push_back(pairer.row(earlier, std::nullopt));
            open.set(key, r);
        } else if (auto alloc = open.take(key)) {
            if (records.records[*alloc].bytes != -rec.bytes)
                ++out.sizeMismatches;
            out.rows.push_back(pairer.row(alloc, r));
        } else {
            freedOnly.push_back(r);
        }
    }
    for (AllocationRow& row : neverFreedEarly)
        out.rows.push_back(std::move(row));
    for (const auto& [key, r] : open.inOrder())
        out.rows.push_back(pairer.row(r, std::nullopt));
    for (std::uint32_t r : freedOnly)
        out.rows.push_back(pairer.row(std::nullopt, r));
    for (AllocationRow& row : out.rows)
        if (row.freeRecord)
            row.freeOp = pairer.freeOpOf(*row.freeRecord);
    return out;
}

} // namespace ks::core
