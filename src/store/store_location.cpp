// Store locations. A URL's password may appear in two places (userinfo and the password query
// parameter, see libpq's connection URIs); both are cut out textually, so even a URL libpq
// would reject is shown without its secret. The userinfo password is taken to run from the first
// ':' after "://" to the last '@' of the whole URL, so a password holding '/', '?' or '@' (not
// percent-encoded: libpq then rejects the URL, and the message would have shown it) is hidden
// too; a URL with an '@' further on (in a query value) loses a little more than its password.
// Both kinds of span are found on the original text and hidden together (overlapping spans
// become one "***"), so neither cut can hide the other's delimiters.
#include "store/store_location.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace routetune {

namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

using Span = std::pair<std::size_t, std::size_t>;  // [first, last) of the text to hide

// The value of every "password=" parameter: after a '?' or '&' (any of them, so a '?' inside a
// userinfo password does not hide the real query), up to the next '&'.
void query_passwords(const std::string& url, std::vector<Span>& spans) {
    for (std::size_t i = 0; i < url.size(); ++i) {
        if ((url[i] != '?' && url[i] != '&') || lower(url.substr(i + 1, 9)) != "password=") continue;
        std::size_t start = i + 10;
        std::size_t end = std::min(url.find('&', start), url.size());
        spans.emplace_back(start, end);
    }
}

// The userinfo password: from the first ':' after "://" to the last '@' of the URL.
void userinfo_password(const std::string& url, std::vector<Span>& spans) {
    std::size_t authority = url.find("://") + 3;
    std::size_t at = url.rfind('@');
    if (at == std::string::npos || at < authority) return;
    std::size_t colon = url.find(':', authority);
    if (colon != std::string::npos && colon < at) spans.emplace_back(colon + 1, at);
}

}  // namespace

bool is_postgres_url(const std::string& text) {
    std::string head = lower(text.substr(0, 13));
    return head.rfind("postgresql://", 0) == 0 || head.rfind("postgres://", 0) == 0;
}

std::string redact_location(const std::string& text) {
    if (!is_postgres_url(text)) return text;
    std::vector<Span> spans;
    userinfo_password(text, spans);
    query_passwords(text, spans);
    std::sort(spans.begin(), spans.end());
    std::string shown;
    std::size_t pos = 0;  // text before pos is shown or hidden already
    for (std::size_t i = 0; i < spans.size(); ++i) {
        auto [first, last] = spans[i];
        while (i + 1 < spans.size() && spans[i + 1].first <= last) last = std::max(last, spans[++i].second);
        shown.append(text, pos, std::max(first, pos) - pos);
        shown += "***";
        pos = std::max(pos, last);
    }
    return shown + text.substr(std::min(pos, text.size()));
}

bool StoreLocation::is_postgres() const { return is_postgres_url(text); }

bool StoreLocation::is_file() const { return !is_postgres(); }

bool StoreLocation::shares_work() const { return is_postgres(); }

std::string StoreLocation::for_records() const {
    if (!is_file()) return redacted();
    return std::filesystem::absolute(text).lexically_normal().string();
}

std::string StoreLocation::redacted() const { return redact_location(text); }

}  // namespace routetune
