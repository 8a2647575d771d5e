// The HTTP server of `routetune serve`, hardened against slow and hostile clients: each
// connection carries one request, whose reading must end within a deadline (a client
// trickling its headers cannot hold a thread), and whose answer must be taken within another;
// connections are served by a fixed pool of threads with a bounded queue (past it, a new
// connection is closed at once); and only requests naming, in their Host header, a name the
// server listens on are answered (a page of another site that rebinds its own name to this
// address cannot read the report: DNS rebinding).
#pragma once

#include <httplib.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace routetune::cli {

/// The limits of a GuardedServer.
struct ServerLimits {
    std::chrono::milliseconds request_deadline{10000};  ///< the whole request, from accept
    std::chrono::milliseconds answer_deadline{30000};   ///< the whole answer, from its first byte
    std::size_t threads = 32;                           ///< connections served at once
    std::size_t queued = 64;                            ///< connections waiting for a thread
};

/// An httplib::Server with the limits above; requests whose Host is not allowed get 421.
class GuardedServer : public httplib::Server {
public:
    /// allowed_hosts: the host names (without port) a request may name; empty allows any.
    GuardedServer(ServerLimits limits, std::vector<std::string> allowed_hosts);
    /// Sets the port the Host header may carry (once bound).
    void set_port(int port) { port_ = port; }

private:
    bool process_and_close_socket(socket_t sock) override;

    ServerLimits limits_;
    std::vector<std::string> allowed_hosts_;
    int port_ = 0;
};

/// The host names a server bound to host may be reached by without DNS: host itself, and for
/// a loopback address also "localhost" (and "127.0.0.1", "[::1]"); for a wildcard address
/// ("0.0.0.0", "::") every IP literal is allowed, plus "localhost" and this machine's name.
std::vector<std::string> listening_host_names(const std::string& host);

/// True when the Host header value host_header ("name" or "name:port", IPv6 in brackets)
/// names one of names (case-insensitively; "*ip" in names allows any IP literal) with no port
/// or port.
bool host_allowed(std::string_view host_header, const std::vector<std::string>& names, int port);

}  // namespace routetune::cli
