#pragma once

#include "core/analysis/tables/table_rows.h"
#include "core/common/result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace ks::core {

class SqliteStatement;

// A thin owner of one SQLite connection: errors come back as values naming the
// database file, never as exceptions, so the core boundary stays exception-free.
class SqliteDb
{
public:
    enum class Mode : std::uint8_t
    {
        ReadOnly,
        Create // read-write, created when missing
    };

    static Result<SqliteDb> open(const std::string& path, Mode mode);

    SqliteDb(SqliteDb&& other) noexcept;
    SqliteDb& operator=(SqliteDb&& other) noexcept;
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;
    ~SqliteDb();

    // Runs one or more statements without results.
    std::optional<Error> exec(std::string_view sql);
    Result<SqliteStatement> prepare(std::string_view sql);
    // True when the database has a table of that name (false when the query fails).
    bool hasTable(std::string_view table);
    // An error naming the file: "<path>: <what> (<SQLite's message>)".
    Error error(std::string_view what) const;

    const std::string& path() const { return m_path; }

    void close();

private:
    SqliteDb(sqlite3* db, std::string path)
        : m_db(db)
        , m_path(std::move(path))
    {
    }

    sqlite3* m_db = nullptr;
    std::string m_path;
};

// One prepared statement. Parameters are numbered from 1, result columns from 0.
class SqliteStatement
{
public:
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&& other) noexcept;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    ~SqliteStatement();

    void bind(int index, const Cell& value);
    void bind(int index, std::int64_t value);
    void bind(int index, double value);
    void bind(int index, std::string_view value);
    void bindNull(int index);
    // Copies the bytes (SQLite keeps its own copy until the next binding).
    void bindBlob(int index, std::span<const std::byte> bytes);

    // True when a row is ready, false when done; an error otherwise.
    Result<bool> step();
    // Steps to the end (for INSERT/UPDATE), then resets for the next bindings.
    std::optional<Error> run();
    void reset();

    int columnCount() const;
    Cell column(int index) const;
    std::int64_t columnInt(int index) const;
    double columnDouble(int index) const;
    std::string columnText(int index) const;
    bool columnIsNull(int index) const;
    // Valid until the next step() or reset(); empty for NULL.
    std::span<const std::byte> columnBlob(int index) const;

private:
    friend class SqliteDb;

    SqliteStatement(sqlite3_stmt* statement, const SqliteDb* db)
        : m_statement(statement)
        , m_db(db)
    {
    }

    sqlite3_stmt* m_statement = nullptr;
    const SqliteDb* m_db = nullptr;
};

} // namespace ks::core
