#include "python/src/table_to_python.h"

#include <cmath>
#include <limits>
#include <pybind11/numpy.h>

namespace py = pybind11;

namespace ks::python {

namespace {

    // What a column holds, which decides its Python type.
    struct ColumnKinds
    {
        bool integers = false;
        bool reals = false;
        bool texts = false;
        bool nulls = false;
    };

    ColumnKinds kindsOf(const core::TableRows& rows, std::size_t column)
    {
        ColumnKinds kinds;
        for (const core::TableRows::Row row : rows) {
            const core::Cell cell = column < row.size() ? row[column] : core::Cell {};
            if (std::holds_alternative<std::int64_t>(cell))
                kinds.integers = true;
            else if (std::holds_alternative<double>(cell))
                kinds.reals = true;
            else if (std::holds_alternative<std::string>(cell))
                kinds.texts = true;
            else
                kinds.nulls = true;
        }
        return kinds;
    }

    py::object cellToPython(const core::Cell& cell)
    {
        if (const auto* i = std::get_if<std::int64_t>(&cell))
            return py::int_(*i);
        if (const auto* d = std::get_if<double>(&cell))
            return py::float_(*d);
        if (const auto* s = std::get_if<std::string>(&cell))
            return py::str(*s);
        return py::none();
    }

    py::object columnToPython(const core::TableRows& rows, std::size_t column)
    {
        const ColumnKinds kinds = kindsOf(rows, column);
        const auto n = static_cast<py::ssize_t>(rows.size());
        auto cellAt = [&](std::size_t r) {
            const core::TableRows::Row row = rows[r];
            return column < row.size() ? row[column] : core::Cell {};
        };
        if (!kinds.texts && kinds.integers && !kinds.reals && !kinds.nulls) {
            py::array_t<std::int64_t> out(n);
            auto view = out.mutable_unchecked<1>();
            for (py::ssize_t r = 0; r < n; ++r)
                view(r) = std::get<std::int64_t>(cellAt(static_cast<std::size_t>(r)));
            return out;
        }
        if (!kinds.texts && (kinds.integers || kinds.reals)) {
            py::array_t<double> out(n);
            auto view = out.mutable_unchecked<1>();
            for (py::ssize_t r = 0; r < n; ++r) {
                const core::Cell cell = cellAt(static_cast<std::size_t>(r));
                if (const auto* i = std::get_if<std::int64_t>(&cell))
                    view(r) = static_cast<double>(*i);
                else if (const auto* d = std::get_if<double>(&cell))
                    view(r) = *d;
                else
                    view(r) = std::numeric_limits<double>::quiet_NaN();
            }
            return out;
        }
        py::list out(static_cast<std::size_t>(n));
        for (std::size_t r = 0; r < rows.size(); ++r)
            out[r] = cellToPython(cellAt(r));
        return out;
    }

} // namespace

py::dict tableToPython(const core::Table& table)
{
    py::dict out;
    out["kind"] = "dataframe";
    out["name"] = table.name;
    py::list columns;
    py::list units;
    py::list data;
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        columns.append(table.columns[c].name);
        units.append(table.columns[c].unit);
        data.append(columnToPython(table.rows, c));
    }
    out["columns"] = columns;
    out["units"] = units;
    out["data"] = data;
    py::list index;
    for (const std::string& name : table.indexColumns)
        index.append(name);
    out["index"] = index;
    out["not_applicable"] = table.notApplicable ? py::object(py::str(*table.notApplicable)) : py::none();
    return out;
}

py::dict resultToPython(const core::HtaResult& result)
{
    using Kind = core::HtaResult::Kind;
    py::dict out;
    switch (result.kind) {
    case Kind::DataFrame:
        return tableToPython(result.frame);
    case Kind::Tuple:
    case Kind::List: {
        out["kind"] = result.kind == Kind::Tuple ? "tuple" : "list";
        py::list items;
        for (const core::HtaResult& item : result.items)
            items.append(resultToPython(item));
        out["items"] = items;
        return out;
    }
    case Kind::Dict: {
        out["kind"] = "dict";
        py::list items;
        for (const auto& [key, item] : result.entries)
            items.append(py::make_tuple(key, resultToPython(item)));
        out["items"] = items;
        return out;
    }
    case Kind::Scalar:
        out["kind"] = "scalar";
        out["value"] = cellToPython(result.scalar);
        return out;
    case Kind::RawJson:
        out["kind"] = "json";
        out["text"] = result.rawJson;
        return out;
    case Kind::None:
        break;
    }
    out["kind"] = "none";
    return out;
}

py::dict outputToPython(const core::AnalysisOutput& output)
{
    if (output.ok)
        return resultToPython(output.result);
    py::dict out;
    out["kind"] = "not_applicable";
    out["why"] = output.error;
    return out;
}

} // namespace ks::python
