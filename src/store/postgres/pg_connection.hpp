// A thin RAII layer over libpq: one connection, statements with text parameters (NULL as
// nullopt), results read by row and column, and a transaction guard. Every error names the
// redacted URL and the server's own message; nothing here ever shows a password.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

namespace routetune {

/// One statement parameter in text form; nullopt is SQL NULL.
using PgParam = std::optional<std::string>;

/// A double as a parameter (shortest exact text; NaN and infinities as PostgreSQL spells them).
PgParam pg_real(double value);
/// An integer as a parameter.
PgParam pg_int(std::int64_t value);

/// The rows a statement returned (owns the PGresult).
class PgResult {
public:
    explicit PgResult(PGresult* result) : result_(result) {}
    ~PgResult();
    PgResult(PgResult&& other) noexcept : result_(other.result_) { other.result_ = nullptr; }
    PgResult& operator=(PgResult&&) = delete;
    PgResult(const PgResult&) = delete;

    /// Number of rows.
    int rows() const;
    /// Rows an UPDATE/DELETE/INSERT touched.
    std::int64_t affected() const;
    /// True when the value is NULL.
    bool is_null(int row, int column) const;
    /// The value as text ("" for NULL).
    std::string text(int row, int column) const;
    /// The value as a double (0 for NULL).
    double real(int row, int column) const;
    /// The value as an integer (0 for NULL).
    std::int64_t integer(int row, int column) const;

private:
    PGresult* result_;
};

/// An open connection to one database.
class PgConnection {
public:
    /// Connects to url (a postgresql:// URL); throws RuntimeFailure naming the redacted URL and
    /// the server's message when it cannot.
    explicit PgConnection(const std::string& url);
    ~PgConnection();
    PgConnection(const PgConnection&) = delete;
    PgConnection& operator=(const PgConnection&) = delete;

    /// Runs one statement with parameters $1..$n; throws RuntimeFailure on an error.
    PgResult exec(const std::string& sql, const std::vector<PgParam>& params = {});
    /// Runs several statements without parameters (schema scripts); throws on an error.
    void exec_script(const std::string& sql);
    /// The URL with its password redacted (for messages).
    const std::string& where() const { return where_; }

private:
    PGconn* conn_ = nullptr;
    std::string where_;
};

/// BEGIN on construction; ROLLBACK on destruction unless commit() ran.
class PgTransaction {
public:
    /// Begins a transaction on connection.
    explicit PgTransaction(PgConnection& connection);
    ~PgTransaction();
    PgTransaction(const PgTransaction&) = delete;
    PgTransaction& operator=(const PgTransaction&) = delete;
    /// Commits.
    void commit();

private:
    PgConnection& connection_;
    bool done_ = false;
};

/// Bytes as lower-case hex (bytea parameters go through decode($n, 'hex')).
std::string to_hex(const std::string& bytes);
/// The inverse of to_hex (what encode(column, 'hex') returns).
std::string from_hex(const std::string& hex);

}  // namespace routetune
