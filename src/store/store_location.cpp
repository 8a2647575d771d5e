// Store locations. A URL's password may appear in two places (userinfo and the password query
// parameter, see libpq's connection URIs); both are cut out textually, so even a URL libpq
// would reject is shown without its secret. The userinfo password is taken to run from the first
// ':' after "://" to the last '@' of the whole URL, so a password holding '/', '?' or '@' (not
// percent-encoded: libpq then rejects the URL, and the message would have shown it) is hidden
// too; a URL with an '@' further on (in a query value) loses a little more than its password.
#include "store/store_location.hpp"

#include <algorithm>
#include <cctype>

namespace routetune {

namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

// Replaces the value of every "password=" parameter after the '?' (up to the next '&').
void redact_query(std::string& url) {
    std::size_t query = url.find('?');
    if (query == std::string::npos) return;
    std::size_t pos = query;
    while (pos < url.size()) {
        std::size_t start = pos + 1;
        std::size_t end = url.find('&', start);
        if (end == std::string::npos) end = url.size();
        std::string key = lower(url.substr(start, std::min(end, url.find('=', start)) - start));
        std::size_t equals = url.find('=', start);
        if (key == "password" && equals != std::string::npos && equals < end) {
            url.replace(equals + 1, end - equals - 1, "***");
            end = equals + 4;
        }
        pos = end;
    }
}

}  // namespace

bool is_postgres_url(const std::string& text) {
    std::string head = lower(text.substr(0, 13));
    return head.rfind("postgresql://", 0) == 0 || head.rfind("postgres://", 0) == 0;
}

std::string redact_location(const std::string& text) {
    if (!is_postgres_url(text)) return text;
    std::string url = text;
    redact_query(url);  // first: the userinfo cut below may swallow the '?' of the query
    std::size_t authority = url.find("://") + 3;
    std::size_t at = url.rfind('@');
    if (at != std::string::npos && at >= authority) {
        std::size_t colon = url.find(':', authority);
        if (colon != std::string::npos && colon < at) url.replace(colon + 1, at - colon - 1, "***");
    }
    return url;
}

bool StoreLocation::is_postgres() const { return is_postgres_url(text); }

std::string StoreLocation::redacted() const { return redact_location(text); }

}  // namespace routetune
