// RAII wrappers of sqlite3 connections and statements. Errors carry the database path and
// sqlite3_errmsg; SQLITE_NOTADB becomes a UsageError because it means the user pointed a
// command at a file that is not a study store.
#include "store/sqlite/sqlite_db.hpp"

#include <sqlite3.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>

#include "routetune/error.hpp"
#include "util/space_reserve.hpp"

namespace routetune {

namespace {

// "file:" + the path with every byte but unreserved ones and '/' percent-encoded (RFC 3986),
// so '?', '#' and '%' in a path stay part of it.
std::string file_uri(const std::filesystem::path& path, bool immutable) {
    std::string uri = "file:";
    const char* hex = "0123456789ABCDEF";
    for (unsigned char c : std::filesystem::absolute(path).string()) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
            uri += static_cast<char>(c);
        } else {
            uri += '%';
            uri += hex[c >> 4];
            uri += hex[c & 15];
        }
    }
    return uri + "?mode=ro" + (immutable ? "&immutable=1" : "");
}

}  // namespace

SqliteDb::SqliteDb(const std::filesystem::path& path, bool read_only, bool create, bool immutable) : path_(path) {
    int flags = read_only ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
                          : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    std::string name = read_only ? file_uri(path, immutable) : path.string();
    int rc = sqlite3_open_v2(name.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw RuntimeFailure(path.string() + ": cannot open the study store: " + message);
    }
    sqlite3_extended_result_codes(db_, 1);
}

SqliteDb::~SqliteDb() { sqlite3_close(db_); }

void SqliteDb::fail(int rc, std::string_view what) const {
    std::string message = path_.string() + ": " + std::string(what) + ": " + sqlite3_errmsg(db_);
    int system_error = sqlite3_system_errno(db_);
    if ((rc & 0xff) == SQLITE_FULL || system_error == ENOSPC || system_error == EFBIG)
        message += std::string(" (") + std::strerror(system_error == 0 ? ENOSPC : system_error) +
                   ": the disk holding the study store is full, or the file-size limit (ulimit -f) was reached; "
                   "free some space, then run the same command with --continue)";
    if ((rc & 0xff) == SQLITE_NOTADB) throw UsageError(path_.string() + ": not a routetune study store (" +
                                                       sqlite3_errmsg(db_) + ")");
    throw RuntimeFailure(message);
}

void SqliteDb::before_write() {
    if (reserve_ != nullptr && sqlite3_get_autocommit(db_) != 0) reserve_->adjust();
}

void SqliteDb::exec(std::string_view sql) {
    before_write();
    std::string text(sql);
    char* error = nullptr;
    int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
    sqlite3_free(error);
    if (rc != SQLITE_OK) fail(rc, "SQL failed");
}

SqliteStatement SqliteDb::prepare(std::string_view sql) {
    sqlite3_stmt* statement = nullptr;
    int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &statement, nullptr);
    if (rc != SQLITE_OK) fail(rc, "cannot prepare SQL");
    return SqliteStatement(*this, statement);
}

std::int64_t SqliteDb::last_insert_id() const { return sqlite3_last_insert_rowid(db_); }

SqliteStatement::~SqliteStatement() { sqlite3_finalize(statement_); }

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(other.db_), statement_(other.statement_) {
    other.statement_ = nullptr;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
    int rc = sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) db_->fail(rc, "cannot bind a value");
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
    int rc = sqlite3_bind_int64(statement_, index, value);
    if (rc != SQLITE_OK) db_->fail(rc, "cannot bind a value");
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
    int rc = std::isnan(value) ? sqlite3_bind_null(statement_, index) : sqlite3_bind_double(statement_, index, value);
    if (rc != SQLITE_OK) db_->fail(rc, "cannot bind a value");
    return *this;
}

SqliteStatement& SqliteStatement::bind_null(int index) {
    int rc = sqlite3_bind_null(statement_, index);
    if (rc != SQLITE_OK) db_->fail(rc, "cannot bind a value");
    return *this;
}

bool SqliteStatement::step() {
    if (sqlite3_stmt_readonly(statement_) == 0) db_->before_write();
    int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    db_->fail(rc, "SQL step failed");
}

void SqliteStatement::reset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
}

std::string SqliteStatement::text(int column) const {
    const unsigned char* data = sqlite3_column_text(statement_, column);
    if (!data) return {};
    return std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)));
}

std::int64_t SqliteStatement::integer(int column) const { return sqlite3_column_int64(statement_, column); }

double SqliteStatement::real(int column) const {
    if (is_null(column)) return std::numeric_limits<double>::quiet_NaN();
    return sqlite3_column_double(statement_, column);
}

bool SqliteStatement::is_null(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }

}  // namespace routetune
