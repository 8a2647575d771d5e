// libFuzzer target: store locations (store/store_location.hpp). Whatever the text,
// is_postgres_url and redact_location never fail and a path is left alone. A password marker
// placed in a URL's userinfo (after the first ':' of the authority) or in its first query
// parameter `password=` (a value without '&') never shows in the redacted form, whatever the
// fuzzed user, host, path and query around it (the input's lines), even where libpq would
// reject the URL: a password with '/', '?' or '@' in it stays hidden. (Redaction is not
// idempotent: for finding-store_location-72af1eca8bc5 a second pass hides more, never less.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "store/store_location.hpp"

namespace {

constexpr std::string_view kMarker = "SeCrEt42";

std::vector<std::string> lines_of(std::string_view text) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == '\n') {
            parts.emplace_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    while (parts.size() < 4) parts.emplace_back();
    return parts;
}

void check_hidden(const std::string& url) {
    if (!routetune::is_postgres_url(url)) std::abort();
    std::string shown = routetune::redact_location(url);
    if (shown.find(kMarker) != std::string::npos) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::string whole(text);
    std::string shown = routetune::redact_location(whole);
    if (!routetune::is_postgres_url(whole) && shown != whole) std::abort();
    if (text.find(kMarker) != std::string_view::npos) return 0;
    std::vector<std::string> part = lines_of(text);
    const char* scheme = !part[0].empty() && (part[0][0] & 1) ? "postgres://" : "POSTGRESQL://";
    check_hidden(scheme + part[1] + ":" + part[2] + std::string(kMarker) + part[3] + "@" + part[0]);
    if (part[1].find('?') == std::string::npos && part[2].find('&') == std::string::npos)
        check_hidden(scheme + part[1] + "?password=" + part[2] + std::string(kMarker) + "&" + part[3]);
    return 0;
}
