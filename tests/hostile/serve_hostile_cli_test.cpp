// `routetune serve` against hostile clients (issue 25), over raw sockets: 16 connections
// trickling their headers a byte a second do not keep the page from answering; a trickling
// client is cut off; hundreds of idle connections do not make the server hold hundreds of
// descriptors; and a request naming another host (a DNS-rebinding page) is refused with 421.
// Before, the page waited behind the trickling clients for as long as they trickled, nobody
// was cut off, every connection was queued, and any Host was answered.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <atomic>
#include <regex>

#include "e2e/cli_harness.hpp"

namespace routetune::e2e {
namespace {

// A finished study of the custom adapter and `serve` over it on a free port.
class Served {
public:
    Served() {
        fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-serve-hostile-");
        write_file(dir / "spec.toml",
                   "name = \"s\"\n[compiler]\nadapter = \"custom\"\n[build]\ncommand = [\"sh\", \"-c\", "
                   "\"echo 'echo 1' > $0\", \"{artifact}\"]\n[run]\ncommand = [\"sh\", \"{artifact}\"]\n[timing]\n"
                   "source = \"process\"\nwarmup = 0\nrepeats = 1\n[accuracy]\nformat = \"text\"\nmetric = \"exact\"\n"
                   "[[knob]]\nname = \"-k\"\nvalues = [\"a\", \"b\"]\ndefault = \"a\"\nenv = \"K\"\n[search]\nroutes = \"-k=[a|b]\"\n");
        CliResult tuned = run_cli({"tune", "spec.toml"}, dir);
        EXPECT_EQ(tuned.exit_code, 0) << tuned.err;
        serve_ = std::make_unique<BackgroundCli>(std::vector<std::string>{"serve", ".routetune/s.sqlite", "--port", "0"}, dir);
        static const std::regex line("serving http://[0-9.]+:([0-9]+)/");
        for (int i = 0; i < 300 && port_ <= 0; ++i) {
            std::smatch m;
            std::string log = read_file(dir / "background.log").value_or("");
            if (std::regex_search(log, m, line)) port_ = std::stoi(m[1].str());
            else std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
    ~Served() {
        serve_->signal(SIGTERM);
        serve_->wait();
    }
    int port() const { return port_; }
    pid_t pid() const { return serve_->pid(); }

private:
    std::unique_ptr<BackgroundCli> serve_;
    int port_ = -1;
};

// A connected TCP socket to 127.0.0.1:port whose reads give up after timeout_s; -1 on failure.
int connect_to(int port, int timeout_s = 60) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timeval timeout{timeout_s, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

// The status code of the answer to request on a new connection ("" request line: GET /), or
// -1 when there was none within timeout_s.
int status_of(int port, const std::string& request, int timeout_s = 60) {
    int fd = connect_to(port, timeout_s);
    if (fd < 0) return -1;
    send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    std::string answer;
    char buffer[4096];
    ssize_t got;
    while (answer.find("\r\n") == std::string::npos && (got = recv(fd, buffer, sizeof buffer, 0)) > 0) answer.append(buffer, got);
    close(fd);
    std::smatch m;
    static const std::regex status("^HTTP/1\\.[01] ([0-9]{3})");
    return std::regex_search(answer, m, status) ? std::stoi(m[1].str()) : -1;
}

// A GET of the page naming host.
std::string get(const std::string& host) {
    return "GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
}

// Connections that send a request line, then one header byte a second until stopped.
class Tricklers {
public:
    Tricklers(int port, int count) {
        for (int i = 0; i < count; ++i) {
            int fd = connect_to(port);
            fds_.push_back(fd);
            send(fd, "GET / HTTP/1.1\r\nX-Slow: ", 24, MSG_NOSIGNAL);
        }
        thread_ = std::thread([this] {
            while (!stop_) {
                for (int fd : fds_) send(fd, "a", 1, MSG_NOSIGNAL);
                for (int i = 0; i < 10 && !stop_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
            }
        });
    }
    ~Tricklers() {
        stop_ = true;
        thread_.join();
        for (int fd : fds_) close(fd);
    }
    const std::vector<int>& fds() const { return fds_; }

private:
    std::vector<int> fds_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

std::size_t open_descriptors(pid_t pid) {
    std::size_t count = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(fs::path("/proc") / std::to_string(pid) / "fd")) ++count;
    return count;
}

TEST(ServeHostile, TricklingClientsDoNotKeepThePageFromAnswering) {
    Served served;
    ASSERT_GT(served.port(), 0);
    Tricklers slow(served.port(), 16);
    std::this_thread::sleep_for(std::chrono::seconds(2));
    EXPECT_EQ(status_of(served.port(), get("127.0.0.1:" + std::to_string(served.port())), 30), 200)
        << "the page did not answer while 16 clients trickled their headers";
}

TEST(ServeHostile, ATricklingClientIsCutOff) {
    Served served;
    ASSERT_GT(served.port(), 0);
    Tricklers slow(served.port(), 1);
    // Each read waits up to 60 s (SO_RCVTIMEO); the server may answer 400 before it closes.
    char buffer[4096];
    ssize_t got;
    while ((got = recv(slow.fds()[0], buffer, sizeof buffer, 0)) > 0) {
    }
    bool ended = got == 0 || errno == ECONNRESET;
    EXPECT_TRUE(ended) << "the server kept a client that had sent no complete request after 60 s (errno " << errno << ")";
}

TEST(ServeHostile, HundredsOfIdleConnectionsAreBounded) {
    Served served;
    ASSERT_GT(served.port(), 0);
    std::vector<int> idle;
    for (int i = 0; i < 300; ++i) idle.push_back(connect_to(served.port()));
    std::this_thread::sleep_for(std::chrono::seconds(1));
    EXPECT_LT(open_descriptors(served.pid()), 150u) << "serve holds a descriptor per idle connection";
    int status = -1;
    for (int attempt = 0; attempt < 60 && status != 200; ++attempt) {
        status = status_of(served.port(), get("127.0.0.1:" + std::to_string(served.port())), 5);
        if (status != 200) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    EXPECT_EQ(status, 200);
    for (int fd : idle) close(fd);
}

TEST(ServeHostile, OnlyItsOwnHostNamesAreAnswered) {
    Served served;
    ASSERT_GT(served.port(), 0);
    std::string port = std::to_string(served.port());
    EXPECT_EQ(status_of(served.port(), get("127.0.0.1:" + port)), 200);
    EXPECT_EQ(status_of(served.port(), get("localhost:" + port)), 200);
    EXPECT_EQ(status_of(served.port(), get("LOCALHOST")), 200);
    EXPECT_EQ(status_of(served.port(), get("attacker.example:" + port)), 421) << "a rebinding page's Host was answered";
    EXPECT_EQ(status_of(served.port(), get("127.0.0.1.attacker.example:" + port)), 421);
    EXPECT_EQ(status_of(served.port(), get("127.0.0.1:1")), 421) << "another port";
    EXPECT_EQ(status_of(served.port(), "GET / HTTP/1.0\r\n\r\n"), 421) << "no Host at all";
}

}  // namespace
}  // namespace routetune::e2e
