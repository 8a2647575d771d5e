// httplib 0.11 reads a request through a Stream whose every read waits up to its read timeout,
// so a client sending a byte every few seconds keeps a thread forever. GuardedServer takes
// over the one step httplib lets a subclass replace, the processing of an accepted socket: it
// hands process_request a DeadlineStream, whose waits (poll) end at one deadline for the
// whole request and another for the whole answer, and it serves one request per connection.
// The task queue is a fixed pool of threads with a bounded queue; when the queue is full the
// accepting thread itself closes the new connection (a thread-local flag tells the processing
// step to do only that), so neither threads nor descriptors grow with the clients.
#include "cli/guarded_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

namespace routetune::cli {

namespace {

using Clock = std::chrono::steady_clock;

thread_local bool t_refuse = false;

// A fixed pool of threads and a queue of at most `queued` connections.
class BoundedPool : public httplib::TaskQueue {
public:
    BoundedPool(std::size_t threads, std::size_t queued) : queued_(queued) {
        for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
    }
    ~BoundedPool() override { shutdown(); }

    void enqueue(std::function<void()> fn) override {
        {
            std::lock_guard lock(mutex_);
            if (!stopping_ && jobs_.size() < queued_) {
                jobs_.push_back(std::move(fn));
                ready_.notify_one();
                return;
            }
        }
        t_refuse = true;  // full: this connection is closed here and now
        fn();
        t_refuse = false;
    }

    void shutdown() override {
        {
            std::lock_guard lock(mutex_);
            if (stopping_ && threads_.empty()) return;
            stopping_ = true;
        }
        ready_.notify_all();
        for (auto& thread : threads_) {
            if (thread.joinable()) thread.join();
        }
        threads_.clear();
    }

private:
    void work() {
        while (true) {
            std::function<void()> job;
            {
                std::unique_lock lock(mutex_);
                ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
                if (jobs_.empty()) return;
                job = std::move(jobs_.front());
                jobs_.pop_front();
            }
            job();
        }
    }

    std::size_t queued_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
    std::vector<std::thread> threads_;
    bool stopping_ = false;
};

// A socket whose reads must all happen before one deadline and whose writes before another,
// counted from the first write.
class DeadlineStream : public httplib::Stream {
public:
    DeadlineStream(int sock, const ServerLimits& limits)
        : sock_(sock), read_deadline_(Clock::now() + limits.request_deadline), answer_time_(limits.answer_deadline) {}

    bool is_readable() const override { return wait(POLLIN, read_deadline_); }
    bool is_writable() const override { return wait(POLLOUT, write_deadline()); }
    ssize_t read(char* data, size_t size) override {
        if (!is_readable()) return -1;
        ssize_t got;
        do {
            got = recv(sock_, data, size, 0);
        } while (got < 0 && errno == EINTR);
        return got;
    }
    ssize_t write(const char* data, size_t size) override {
        if (!is_writable()) return -1;
        ssize_t put;
        do {
            put = send(sock_, data, size, MSG_NOSIGNAL);
        } while (put < 0 && errno == EINTR);
        return put;
    }
    void get_remote_ip_and_port(std::string& ip, int& port) const override { address(getpeername, ip, port); }
    void get_local_ip_and_port(std::string& ip, int& port) const override { address(getsockname, ip, port); }
    socket_t socket() const override { return sock_; }

private:
    Clock::time_point write_deadline() const {
        if (!write_deadline_) write_deadline_ = Clock::now() + answer_time_;
        return *write_deadline_;
    }
    bool wait(short events, Clock::time_point deadline) const {
        while (true) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) return false;
            pollfd fd{sock_, events, 0};
            int ready = poll(&fd, 1, static_cast<int>(std::min<long long>(left, 1 << 30)));
            if (ready < 0 && errno == EINTR) continue;
            return ready > 0;
        }
    }
    template <typename Query>
    void address(Query query, std::string& ip, int& port) const {
        sockaddr_storage storage{};
        socklen_t length = sizeof storage;
        ip.clear();
        port = 0;
        if (query(sock_, reinterpret_cast<sockaddr*>(&storage), &length) != 0) return;
        char text[INET6_ADDRSTRLEN] = {};
        if (storage.ss_family == AF_INET) {
            auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
            inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
            port = ntohs(v4->sin_port);
        } else if (storage.ss_family == AF_INET6) {
            auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
            inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
            port = ntohs(v6->sin6_port);
        }
        ip = text;
    }

    int sock_;
    Clock::time_point read_deadline_;
    std::chrono::milliseconds answer_time_;
    mutable std::optional<Clock::time_point> write_deadline_;
};

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool is_ip_literal(const std::string& name) {
    unsigned char buffer[sizeof(in6_addr)];
    return inet_pton(AF_INET, name.c_str(), buffer) == 1 || inet_pton(AF_INET6, name.c_str(), buffer) == 1;
}

}  // namespace

GuardedServer::GuardedServer(ServerLimits limits, std::vector<std::string> allowed_hosts)
    : limits_(limits), allowed_hosts_(std::move(allowed_hosts)) {
    new_task_queue = [threads = limits.threads, queued = limits.queued] { return new BoundedPool(threads, queued); };
    set_pre_routing_handler([this](const httplib::Request& request, httplib::Response& response) {
        std::string host = request.get_header_value("Host");
        if (allowed_hosts_.empty() || host_allowed(host, allowed_hosts_, port_)) return HandlerResponse::Unhandled;
        response.status = 421;
        response.set_content("routetune serve answers requests for this machine's own names only (Host: " +
                                 std::string(host.empty() ? "none given" : "not one of them") + ")\n",
                             "text/plain");
        return HandlerResponse::Handled;
    });
}

bool GuardedServer::process_and_close_socket(socket_t sock) {
    bool served = false;
    if (!t_refuse) {
        DeadlineStream stream(sock, limits_);
        bool closed = false;
        served = process_request(stream, true, closed, nullptr);
    }
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return served;
}

std::vector<std::string> listening_host_names(const std::string& host) {
    std::string name = lower(host);
    if (name.size() > 2 && name.front() == '[' && name.back() == ']') name = name.substr(1, name.size() - 2);
    if (name.empty() || name == "0.0.0.0" || name == "::") {
        std::vector<std::string> names{"*ip", "localhost"};
        char self[256] = {};
        if (gethostname(self, sizeof self - 1) == 0 && self[0] != '\0') names.push_back(lower(self));
        return names;
    }
    std::vector<std::string> names{name};
    if (name == "localhost" || name.rfind("127.", 0) == 0 || name == "::1") {
        for (const char* loopback : {"localhost", "127.0.0.1", "::1"}) names.emplace_back(loopback);
    }
    return names;
}

bool host_allowed(std::string_view host_header, const std::vector<std::string>& names, int port) {
    std::string header = lower(host_header);
    std::string name, port_text;
    if (!header.empty() && header.front() == '[') {
        std::size_t close = header.find(']');
        if (close == std::string::npos) return false;
        name = header.substr(1, close - 1);
        std::string rest = header.substr(close + 1);
        if (!rest.empty() && rest.front() != ':') return false;
        if (!rest.empty()) port_text = rest.substr(1);
    } else {
        std::size_t colon = header.find(':');
        name = header.substr(0, colon);
        if (colon != std::string::npos) port_text = header.substr(colon + 1);
    }
    if (name.empty()) return false;
    if (!port_text.empty() && port_text != std::to_string(port)) return false;
    if (std::find(names.begin(), names.end(), "*ip") != names.end() && is_ip_literal(name)) return true;
    return std::any_of(names.begin(), names.end(), [&](const std::string& allowed) { return lower(allowed) == name; });
}

}  // namespace routetune::cli
