// `routetune serve` end to end: a slow fake study runs in the background, serve watches its
// store, and an HTTP client fetches the page and the state twice and sees them grow; the
// server listens on 127.0.0.1 only and stops cleanly on SIGTERM.
#include <gtest/gtest.h>
#include <httplib.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "e2e/cli_harness.hpp"

namespace routetune::e2e {
namespace {

// True when /proc/net/tcp lists a socket listening on 127.0.0.1:port (and none elsewhere).
bool listens_on_loopback_only(int port) {
    std::ifstream tcp("/proc/net/tcp");
    std::string line;
    char hex_port[8];
    std::snprintf(hex_port, sizeof hex_port, ":%04X", port);
    bool loopback = false, other = false;
    while (std::getline(tcp, line)) {
        std::istringstream fields(line);
        std::string slot, local, remote, state;
        fields >> slot >> local >> remote >> state;
        if (state != "0A" || local.size() < 5 || local.substr(local.size() - 5) != hex_port) continue;
        (local.rfind("0100007F:", 0) == 0 ? loopback : other) = true;
    }
    return loopback && !other;
}

std::size_t finished(const std::string& state) {
    return nlohmann::json::parse(state).at("studies").at(0).at("finished").get<std::size_t>();
}

TEST(ServeCli, TheLivePageGrowsAsEvaluationsLand) {
    fs::path specs = scratch_specs();
    fs::path store = specs / "slow.sqlite";
    BackgroundCli tune({"tune", "fake_timed.toml", "--cache", store.string()}, specs, {{"FAKE_RUN_SLEEP_S", "0.15"}});
    for (int i = 0; i < 200 && !fs::exists(store); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ASSERT_TRUE(fs::exists(store));
    fs::path serve_dir = make_scratch_folder(fs::temp_directory_path(), "routetune-serve-");
    BackgroundCli serve({"serve", store.string(), "--port", "0"}, serve_dir);
    std::string host;
    int port = served_port(serve_dir / "background.log", host);
    ASSERT_GT(port, 0) << read_file(serve_dir / "background.log").value_or("");
    EXPECT_EQ(host, "127.0.0.1");
    EXPECT_TRUE(listens_on_loopback_only(port));

    httplib::Client client("127.0.0.1", port);
    auto first_state = client.Get("/state");
    ASSERT_TRUE(first_state) << "no answer";
    EXPECT_EQ(first_state->status, 200);
    auto first_page = client.Get("/");
    ASSERT_TRUE(first_page);
    EXPECT_EQ(first_page->status, 200);
    EXPECT_NE(first_page->body.find("connect-src 'self'"), std::string::npos);
    EXPECT_NE(first_page->body.find("data-chart=\"progress\""), std::string::npos);
    std::size_t before = finished(first_state->body);
    std::size_t after = before;
    std::string later;
    for (int i = 0; i < 100 && after <= before; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        auto state = client.Get("/state");
        ASSERT_TRUE(state);
        later = state->body;
        after = finished(later);
    }
    EXPECT_GT(after, before) << "the study's finished count never grew";
    EXPECT_NE(nlohmann::json::parse(later).at("state"), nlohmann::json::parse(first_state->body).at("state"));
    auto second_page = client.Get("/");
    ASSERT_TRUE(second_page);
    auto rows = [](const std::string& page) {
        std::size_t n = 0;
        for (auto at = page.find("<tr class=\"ok\">"); at != std::string::npos; at = page.find("<tr class=\"ok\">", at + 1)) ++n;
        return n;
    };
    EXPECT_GT(rows(second_page->body), rows(first_page->body));
    tune.signal(SIGINT);
    EXPECT_EQ(tune.wait(), 130);
    EXPECT_EQ(client.Get("/")->status, 200) << "an interrupted study is served too";
    serve.signal(SIGTERM);
    EXPECT_EQ(serve.wait(), 0);
}

TEST(ServeCli, AMissingStoreIsBadInput) {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-serve-");
    CliResult r = run_cli({"serve", (dir / "absent.sqlite").string(), "--port", "0"}, dir);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("no study store at"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace routetune::e2e
