#include "python/src/store_columns.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace ks::python {

namespace {

    static_assert(sizeof(core::NameId) == sizeof(std::uint32_t), "NameId columns are viewed as uint32");

    // A capsule holding the rank: the base object of every view, so an array
    // outlives neither the store nor the Trace it came from.
    py::capsule keepAlive(const std::shared_ptr<const core::RankTrace>& trace)
    {
        auto* held = new std::shared_ptr<const core::RankTrace>(trace);
        return py::capsule(
            held, [](void* p) { delete static_cast<std::shared_ptr<const core::RankTrace>*>(p); });
    }

    // A read-only view of `data` (n values), its base `owner`.
    template <typename T>
    py::array viewOf(const T* data, std::size_t n, const py::capsule& owner)
    {
        py::array_t<T> view(
            { static_cast<py::ssize_t>(n) }, { static_cast<py::ssize_t>(sizeof(T)) }, data, owner);
        py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
        return view;
    }

    template <typename T>
    py::array_t<T> arrayOf(const std::vector<T>& values)
    {
        py::array_t<T> out(static_cast<py::ssize_t>(values.size()));
        std::copy(values.begin(), values.end(), out.mutable_data());
        return out;
    }

    py::dict tracksOf(const core::RankTrace& trace)
    {
        std::vector<std::uint8_t> gpu;
        std::vector<std::int64_t> pid, tid, device, stream;
        std::vector<std::uint32_t> begin, end;
        py::list names, processNames;
        for (const core::Track& t : trace.tracks) {
            gpu.push_back(t.kind == core::TrackKind::GpuStream ? 1 : 0);
            pid.push_back(t.key.pid);
            tid.push_back(t.key.tid);
            device.push_back(t.device);
            stream.push_back(t.stream);
            begin.push_back(t.sliceBegin);
            end.push_back(t.sliceEnd);
            names.append(py::str(std::string(trace.name(t.name))));
            processNames.append(py::str(t.processName.valid() ? std::string(trace.name(t.processName)) : ""));
        }
        py::dict out;
        out["is_gpu"] = arrayOf(gpu).attr("astype")("bool");
        out["pid"] = arrayOf(pid);
        out["tid"] = arrayOf(tid);
        out["device"] = arrayOf(device);
        out["stream"] = arrayOf(stream);
        out["slice_begin"] = arrayOf(begin);
        out["slice_end"] = arrayOf(end);
        out["name"] = names;
        out["process_name"] = processNames;
        return out;
    }

    py::dict levelsOf(const core::RankTrace& trace)
    {
        std::vector<std::uint32_t> track, level, begin, end;
        for (std::size_t t = 0; t < trace.tracks.size(); ++t) {
            const core::Track& tr = trace.tracks[t];
            for (std::uint32_t l = 0; l < tr.levelCount(); ++l) {
                track.push_back(static_cast<std::uint32_t>(t));
                level.push_back(l);
                begin.push_back(tr.levelBegin[l]);
                end.push_back(tr.levelBegin[l + 1]);
            }
        }
        py::dict out;
        out["track"] = arrayOf(track);
        out["level"] = arrayOf(level);
        out["begin"] = arrayOf(begin);
        out["end"] = arrayOf(end);
        return out;
    }

} // namespace

py::dict sliceColumns(const std::shared_ptr<const core::RankTrace>& trace)
{
    const core::SliceTable& s = trace->slices;
    const std::size_t n = s.size();
    const py::capsule owner = keepAlive(trace);
    py::dict out;
    out["ts"] = viewOf(s.start.data(), n, owner);
    if (s.durOverflow.empty()) {
        out["dur"] = viewOf(s.durLow.data(), n, owner);
    } else {
        // A duration of 2^32 ns or more is kept aside: the column is whole only as a copy.
        py::array_t<std::int64_t> dur(static_cast<py::ssize_t>(n));
        std::int64_t* d = dur.mutable_data();
        for (std::uint32_t i = 0; i < n; ++i)
            d[i] = s.duration(i);
        out["dur"] = std::move(dur);
    }
    out["name"] = viewOf(reinterpret_cast<const std::uint32_t*>(s.name.data()), n, owner);
    out["category"] = viewOf(s.category.data(), n, owner);
    out["flags"] = viewOf(s.flags.data(), n, owner);
    out["event_index"] = viewOf(s.eventIndex.data(), n, owner);
    py::list names;
    for (std::size_t i = 0; i < trace->strings.size(); ++i)
        names.append(py::str(std::string(trace->strings.view(core::NameId(static_cast<std::uint32_t>(i))))));
    out["names"] = names;
    py::list categories;
    for (const core::NameId id : trace->categories)
        categories.append(py::str(std::string(trace->name(id))));
    out["categories"] = categories;
    out["tracks"] = tracksOf(*trace);
    out["levels"] = levelsOf(*trace);
    return out;
}

py::dict sliceActivityColumns(const core::RankTrace& trace, std::uint32_t begin, std::uint32_t end)
{
    end = std::min<std::uint32_t>(end, static_cast<std::uint32_t>(trace.slices.size()));
    begin = std::min(begin, end);
    const auto n = static_cast<py::ssize_t>(end - begin);
    py::array_t<std::int64_t> correlation(n);
    py::array_t<std::int64_t> stream(n);
    std::int64_t* c = correlation.mutable_data();
    std::int64_t* st = stream.mutable_data();
    for (std::uint32_t i = begin; i < end; ++i) {
        c[i - begin] = trace.correlation(i);
        st[i - begin] = trace.stream(i);
    }
    py::dict out;
    out["correlation"] = std::move(correlation);
    out["stream"] = std::move(stream);
    return out;
}

py::dict counterColumns(const core::RankTrace& trace)
{
    py::list series;
    for (const core::CounterSeries& c : trace.counters) {
        py::dict one;
        one["pid"] = c.pid;
        one["name"] = std::string(trace.name(c.name));
        one["key"] = std::string(trace.name(c.key));
        one["ts"] = arrayOf(c.ts);
        one["value"] = arrayOf(c.value);
        series.append(one);
    }
    const core::InstantTable& in = trace.instants;
    py::list instantNames;
    for (const core::NameId id : in.name)
        instantNames.append(py::str(std::string(trace.name(id))));
    py::dict instants;
    instants["ts"] = arrayOf(in.ts);
    instants["name"] = instantNames;
    instants["event_index"] = arrayOf(in.eventIndex);
    py::dict out;
    out["counters"] = series;
    out["instants"] = instants;
    return out;
}

} // namespace ks::python
