// A fresh database per test in the throwaway cluster that ctest's fixture PostgreSQL.Start
// started (tests/pg/pg_cluster.sh; its URL in the file ROUTETUNE_PG_URL_FILE), or in the server
// that $ROUTETUNE_TEST_PG_URL names. Without either the test is skipped, saying why.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include "store/postgres/pg_connection.hpp"
#include "util/files.hpp"

namespace routetune::testing {

/// The server's URL (database "postgres"), or "" when no server is available.
inline std::string pg_server_url() {
    if (const char* url = std::getenv("ROUTETUNE_TEST_PG_URL")) return url;
    auto text = read_file(ROUTETUNE_PG_URL_FILE);
    if (!text) return "";
    std::string url = *text;
    while (!url.empty() && (url.back() == '\n' || url.back() == ' ')) url.pop_back();
    return url;
}

/// Creates a new empty database and returns its URL; skips the test when there is no server.
#define ROUTETUNE_FRESH_PG_DATABASE(url_variable)                                                        \
    std::string url_variable = ::routetune::testing::fresh_pg_database();                                \
    if (url_variable.empty()) GTEST_SKIP() << "no PostgreSQL test server: run through ctest (its fixture " \
                                              "starts one) or set ROUTETUNE_TEST_PG_URL"

/// A new database's URL ("" without a server).
inline std::string fresh_pg_database() {
    std::string server = pg_server_url();
    if (server.empty()) return "";
    static std::atomic<int> counter{0};
    std::string name = "t_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
    PgConnection admin(server);
    admin.exec("DROP DATABASE IF EXISTS " + name);
    admin.exec("CREATE DATABASE " + name);
    std::size_t slash = server.rfind('/');
    return server.substr(0, slash + 1) + name;
}

}  // namespace routetune::testing
