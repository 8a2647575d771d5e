// `routetune serve STORE... [--study NAME] [--port N] [--host H]`: a live view of running studies
// (SQLite files, or postgresql:// URLs with --study naming the study, as `report` takes them). An HTTP
// server (cpp-httplib) answers / with the report page, read from the stores at each request,
// and /state with a small JSON token the page polls to reload itself when evaluations land.
// It binds to 127.0.0.1 unless told otherwise (the page shows commands and paths), answers only
// requests whose Host names an address it listens on (or --allow-host), and bounds slow and
// numerous clients (cli/guarded_server.hpp). SIGINT and SIGTERM are taken by a watcher thread
// (sigwait) that stops the server, so it ends cleanly.
#include <signal.h>

#include <iostream>
#include <memory>
#include <thread>

#include "cli/commands.hpp"
#include "cli/guarded_server.hpp"
#include "report/live_report.hpp"
#include "routetune/error.hpp"

namespace routetune::cli {

namespace {

struct ServeArguments {
    std::vector<std::string> stores;
    std::string study;
    std::string host = "127.0.0.1";
    int port = 8765;
    int poll_s = 2;
    std::vector<std::string> allowed_hosts;
};

template <typename Render>
void answer(httplib::Response& response, const char* type, Render render) {
    try {
        response.set_content(render(), type);
        response.set_header("Cache-Control", "no-store");
    } catch (const std::exception& e) {
        response.status = 503;
        response.set_content(std::string("cannot read the study: ") + e.what() + "\n", "text/plain");
    }
}

int run(const ServeArguments& a) {
    std::vector<StoreLocation> stores;
    for (const auto& text : a.stores) {
        StoreLocation store(text, a.study);
        if (store.is_file() && !std::filesystem::exists(text)) throw UsageError("no study store at " + text);
        stores.push_back(store);
    }
    live_state(stores);
    std::vector<std::string> names = listening_host_names(a.host);
    for (const auto& name : a.allowed_hosts) names.push_back(name);
    GuardedServer server(ServerLimits{}, names);
    server.Get("/", [&](const httplib::Request&, httplib::Response& r) {
        answer(r, "text/html; charset=utf-8", [&] { return live_page(stores, a.poll_s); });
    });
    server.Get("/state", [&](const httplib::Request&, httplib::Response& r) {
        answer(r, "application/json", [&] { return live_state(stores); });
    });
    int port = a.port;
    if (port == 0) {
        port = server.bind_to_any_port(a.host);
        if (port < 0) throw RuntimeFailure("cannot listen on " + a.host);
    } else if (!server.bind_to_port(a.host, port)) {
        throw RuntimeFailure("cannot listen on " + a.host + ":" + std::to_string(port) +
                             " (in use? choose another with --port, or --port 0 for any free one)");
    }
    server.set_port(port);
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::thread watcher([&] {
        int received = 0;
        sigwait(&signals, &received);
        server.stop();
    });
    std::cerr << "routetune: serving http://" << a.host << ":" << port << "/ (Ctrl-C stops)" << std::endl;
    bool served = server.listen_after_bind();
    if (watcher.joinable()) {
        pthread_kill(watcher.native_handle(), SIGTERM);
        watcher.join();
    }
    if (!served) throw RuntimeFailure("the server stopped with an error");
    return 0;
}

}  // namespace

void add_serve_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<ServeArguments>();
    CLI::App* c = app.add_subcommand("serve", "Serve the HTML report of running studies, refreshed as evaluations land");
    c->add_option("store", a->stores, "the studies' .sqlite files or postgresql:// URLs")->required();
    c->add_option("--study", a->study, "the study's name in a database of several (postgresql:// stores)");
    c->add_option("--port", a->port, "TCP port (default 8765; 0: any free port, printed)")->check(CLI::Range(0, 65535));
    c->add_option("--host", a->host, "address to listen on (default 127.0.0.1: this machine only)");
    c->add_option("--allow-host", a->allowed_hosts,
                  "also answer requests naming this host (a name of this machine or a proxy's; repeatable)");
    c->add_option("--poll", a->poll_s, "seconds between the page's checks for new evaluations (default 2)")
        ->check(CLI::Range(1, 3600));
    c->footer("Exit codes: 0 stopped by Ctrl-C or SIGTERM; 1 cannot listen; 2 bad options or no store at a path (a database that cannot be read answers 503).");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
