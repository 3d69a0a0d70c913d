#include "core/summary/sqlite_db.h"

#include <sqlite3.h>
#include <utility>

namespace ks::core {

Result<SqliteDb> SqliteDb::open(const std::string& path, Mode mode)
{
    sqlite3* db = nullptr;
    const int flags =
        mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    const int rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        Error error { ErrorCode::Unreadable,
            std::string("cannot open as an SQLite database (")
                + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)) + ")",
            path, {} };
        sqlite3_close(db);
        return error;
    }
    sqlite3_extended_result_codes(db, 1);
    return SqliteDb(db, path);
}

SqliteDb::SqliteDb(SqliteDb&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
    , m_path(std::move(other.m_path))
{
}

SqliteDb& SqliteDb::operator=(SqliteDb&& other) noexcept
{
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
    }
    return *this;
}

SqliteDb::~SqliteDb()
{
    close();
}

void SqliteDb::close()
{
    if (m_db)
        sqlite3_close_v2(m_db);
    m_db = nullptr;
}

std::optional<Error> SqliteDb::exec(std::string_view sql)
{
    char* message = nullptr;
    const std::string text(sql);
    if (sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &message) == SQLITE_OK)
        return std::nullopt;
    Error e { ErrorCode::Unreadable, std::string("SQLite: ") + (message ? message : "error"), m_path, {} };
    sqlite3_free(message);
    return e;
}

bool SqliteDb::hasTable(std::string_view table)
{
    auto select = prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
    if (!select)
        return false;
    select.value().bind(1, table);
    auto row = select.value().step();
    return row && row.value();
}

Result<SqliteStatement> SqliteDb::prepare(std::string_view sql)
{
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &statement, nullptr) != SQLITE_OK)
        return error("cannot prepare a query");
    return SqliteStatement(statement, this);
}

Error SqliteDb::error(std::string_view what) const
{
    return Error { ErrorCode::Unreadable,
        std::string(what) + " (SQLite: " + (m_db ? sqlite3_errmsg(m_db) : "not open") + ")", m_path, {} };
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : m_statement(std::exchange(other.m_statement, nullptr))
    , m_db(other.m_db)
{
}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_statement);
        m_statement = std::exchange(other.m_statement, nullptr);
        m_db = other.m_db;
    }
    return *this;
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_statement);
}

void SqliteStatement::bind(int index, const Cell& value)
{
    if (const auto* i = std::get_if<std::int64_t>(&value))
        bind(index, *i);
    else if (const auto* d = std::get_if<double>(&value))
        bind(index, *d);
    else if (const auto* s = std::get_if<std::string>(&value))
        bind(index, std::string_view(*s));
    else if (const auto* json = std::get_if<JsonText>(&value))
        bind(index, std::string_view(json->json));
    else
        bindNull(index);
}

void SqliteStatement::bind(int index, std::int64_t value)
{
    sqlite3_bind_int64(m_statement, index, value);
}

void SqliteStatement::bind(int index, double value)
{
    sqlite3_bind_double(m_statement, index, value);
}

void SqliteStatement::bind(int index, std::string_view value)
{
    sqlite3_bind_text(m_statement, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}

void SqliteStatement::bindNull(int index)
{
    sqlite3_bind_null(m_statement, index);
}

void SqliteStatement::bindBlob(int index, std::span<const std::byte> bytes)
{
    sqlite3_bind_blob64(m_statement, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
}

Result<bool> SqliteStatement::step()
{
    const int rc = sqlite3_step(m_statement);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    return m_db->error("cannot read or write a row");
}

std::optional<Error> SqliteStatement::run()
{
    auto done = step();
    while (done && done.value())
        done = step();
    reset();
    if (!done)
        return done.error();
    return std::nullopt;
}

void SqliteStatement::reset()
{
    sqlite3_reset(m_statement);
    sqlite3_clear_bindings(m_statement);
}

int SqliteStatement::columnCount() const
{
    return sqlite3_column_count(m_statement);
}

Cell SqliteStatement::column(int index) const
{
    switch (sqlite3_column_type(m_statement, index)) {
    case SQLITE_INTEGER:
        return Cell { static_cast<std::int64_t>(sqlite3_column_int64(m_statement, index)) };
    case SQLITE_FLOAT:
        return Cell { sqlite3_column_double(m_statement, index) };
    case SQLITE_NULL:
        return Cell {};
    default:
        return Cell { columnText(index) };
    }
}

std::int64_t SqliteStatement::columnInt(int index) const
{
    return sqlite3_column_int64(m_statement, index);
}

double SqliteStatement::columnDouble(int index) const
{
    return sqlite3_column_double(m_statement, index);
}

std::string SqliteStatement::columnText(int index) const
{
    const auto* text = sqlite3_column_text(m_statement, index);
    return text ? std::string(reinterpret_cast<const char*>(text),
               static_cast<std::size_t>(sqlite3_column_bytes(m_statement, index)))
                : std::string();
}

bool SqliteStatement::columnIsNull(int index) const
{
    return sqlite3_column_type(m_statement, index) == SQLITE_NULL;
}

std::span<const std::byte> SqliteStatement::columnBlob(int index) const
{
    const void* data = sqlite3_column_blob(m_statement, index);
    const int size = sqlite3_column_bytes(m_statement, index);
    if (!data || size <= 0)
        return {};
    return { static_cast<const std::byte*>(data), static_cast<std::size_t>(size) };
}

} // namespace ks::core
