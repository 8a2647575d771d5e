// A thin RAII layer over the sqlite3 C API: a connection and prepared statements, with every
// failure turned into a RuntimeFailure that names the database file and SQLite's message.
// NaN is stored as NULL (SQLite's own rule) and NULL reads back as NaN.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace routetune {

class SpaceReserve;
class SqliteStatement;

/// One open SQLite connection.
class SqliteDb {
public:
    /// Opens path (creating it when create is true); read-only opens use SQLite's mode=ro, and
    /// immutable=1 when immutable (a file nobody writes, on a medium where -shm cannot be made);
    /// throws RuntimeFailure.
    SqliteDb(const std::filesystem::path& path, bool read_only, bool create, bool immutable = false);
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    /// Runs one or more statements without results; throws RuntimeFailure.
    void exec(std::string_view sql);
    /// Prepares one statement; throws RuntimeFailure.
    SqliteStatement prepare(std::string_view sql);
    /// The rowid of the last insert on this connection.
    std::int64_t last_insert_id() const;
    /// The file this connection is for.
    const std::filesystem::path& path() const { return path_; }
    /// Throws RuntimeFailure "path: what: sqlite message" for result code rc.
    [[noreturn]] void fail(int rc, std::string_view what) const;
    /// The raw handle.
    sqlite3* handle() const { return db_; }
    /// Adjusts reserve (util/space_reserve.hpp) before each write that begins outside a
    /// transaction, so a write finds room when the disk is nearly full; reserve must outlive
    /// this connection (or be reset to null first).
    void keep_reserve(SpaceReserve* reserve) { reserve_ = reserve; }
    /// Called before a write: adjusts the reserve when one is kept and no transaction is open.
    void before_write();

private:
    sqlite3* db_ = nullptr;
    SpaceReserve* reserve_ = nullptr;
    std::filesystem::path path_;
};

/// One prepared statement; bind parameters are 1-based, result columns 0-based.
class SqliteStatement {
public:
    SqliteStatement(SqliteDb& db, sqlite3_stmt* statement) : db_(&db), statement_(statement) {}
    ~SqliteStatement();
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    SqliteStatement& operator=(SqliteStatement&&) = delete;

    /// Binds text (copied).
    SqliteStatement& bind(int index, std::string_view text);
    /// Binds an integer.
    SqliteStatement& bind(int index, std::int64_t value);
    /// Binds a double; NaN binds NULL.
    SqliteStatement& bind(int index, double value);
    /// Binds NULL.
    SqliteStatement& bind_null(int index);
    /// Advances; true while a row is available, false when done; throws RuntimeFailure.
    bool step();
    /// Runs a statement without results to completion.
    void run() { while (step()) {} }
    /// Resets for new bindings.
    void reset();

    /// Column values of the current row.
    std::string text(int column) const;
    std::int64_t integer(int column) const;
    /// A double; NULL reads as NaN.
    double real(int column) const;
    /// True when the column is NULL.
    bool is_null(int column) const;

private:
    SqliteDb* db_;
    sqlite3_stmt* statement_;
};

}  // namespace routetune
