// libpq calls. The URL is expanded by libpq itself (PQconnectdbParams with expand_dbname), after
// defaults for a connect timeout and the application name, so the URL's own settings win.
// Notices (e.g. "relation already exists, skipping") are dropped: they are not errors and
// would clutter a worker's log.
#include "store/postgres/pg_connection.hpp"

#include <libpq-fe.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "routetune/error.hpp"
#include "store/store_location.hpp"

namespace routetune {

namespace {

void ignore_notice(void*, const char*) {}

std::string one_line_message(const char* text) {
    std::string message = text ? text : "";
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    for (char& c : message) {
        if (c == '\n') c = ' ';
    }
    return message;
}

}  // namespace

PgParam pg_real(double value) {
    if (std::isnan(value)) return std::string("NaN");
    if (std::isinf(value)) return std::string(value > 0 ? "Infinity" : "-Infinity");
    char buffer[32];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

PgParam pg_int(std::int64_t value) { return std::to_string(value); }

PgResult::~PgResult() {
    if (result_) PQclear(result_);
}

int PgResult::rows() const { return PQntuples(result_); }

std::int64_t PgResult::affected() const {
    const char* text = PQcmdTuples(result_);
    return text && *text ? std::strtoll(text, nullptr, 10) : 0;
}

bool PgResult::is_null(int row, int column) const { return PQgetisnull(result_, row, column) != 0; }

std::string PgResult::text(int row, int column) const {
    return is_null(row, column) ? std::string() : std::string(PQgetvalue(result_, row, column));
}

double PgResult::real(int row, int column) const {
    return is_null(row, column) ? 0.0 : std::strtod(PQgetvalue(result_, row, column), nullptr);
}

std::int64_t PgResult::integer(int row, int column) const {
    return is_null(row, column) ? 0 : std::strtoll(PQgetvalue(result_, row, column), nullptr, 10);
}

PgConnection::PgConnection(const std::string& url) : where_(redact_location(url)) {
    const char* keywords[] = {"connect_timeout", "application_name", "dbname", nullptr};
    const char* values[] = {"10", "routetune", url.c_str(), nullptr};
    conn_ = PQconnectdbParams(keywords, values, 1);
    if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
        std::string message = conn_ ? one_line_message(PQerrorMessage(conn_)) : "out of memory";
        if (conn_) PQfinish(conn_);
        conn_ = nullptr;
        throw RuntimeFailure("cannot connect to the study store " + where_ + ": " + message);
    }
    PQsetNoticeProcessor(conn_, ignore_notice, nullptr);
}

PgConnection::~PgConnection() {
    if (conn_) PQfinish(conn_);
}

namespace {

// The result when the statement succeeded; else throws naming the store and the server's message.
PGresult* checked(PGconn* conn, PGresult* raw, const std::string& where) {
    ExecStatusType status = PQresultStatus(raw);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return raw;
    std::string message = one_line_message(raw ? PQresultErrorMessage(raw) : PQerrorMessage(conn));
    if (message.empty()) message = one_line_message(PQerrorMessage(conn));
    if (raw) PQclear(raw);
    throw RuntimeFailure("study store " + where + ": " + message);
}

}  // namespace

PgResult PgConnection::exec(const std::string& sql, const std::vector<PgParam>& params) {
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const auto& param : params) values.push_back(param ? param->c_str() : nullptr);
    PGresult* raw = PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                                 nullptr, nullptr, 0);
    return PgResult(checked(conn_, raw, where_));
}

void PgConnection::exec_script(const std::string& sql) { PQclear(checked(conn_, PQexec(conn_, sql.c_str()), where_)); }

PgTransaction::PgTransaction(PgConnection& connection) : connection_(connection) { connection_.exec("BEGIN"); }

PgTransaction::~PgTransaction() {
    if (done_) return;
    try {
        connection_.exec("ROLLBACK");
    } catch (...) {
    }
}

void PgTransaction::commit() {
    connection_.exec("COMMIT");
    done_ = true;
}

std::string to_hex(const std::string& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string hex;
    hex.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        hex += digits[c >> 4];
        hex += digits[c & 15];
    }
    return hex;
}

std::string from_hex(const std::string& hex) {
    auto value = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
    std::string bytes;
    bytes.reserve(hex.size() / 2);
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        bytes += static_cast<char>(value(hex[i]) * 16 + value(hex[i + 1]));
    return bytes;
}

}  // namespace routetune
