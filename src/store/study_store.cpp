// Opening a study store by its location: the one place that knows which backend serves which
// location (a postgresql:// URL: PostgreSQL; anything else is a file path: SQLite), and how
// each begins a new study over an old one (a file is renamed with its companions under the
// writer lock; a study in a database is renamed, its rows kept). Also the exact text encoding
// of timing samples.
#include "store/study_store.hpp"

#include <charconv>
#include <system_error>

#include "routetune/error.hpp"
#include "store/postgres/pg_study_store.hpp"
#include "store/sqlite/sqlite_study_store.hpp"
#include "util/files.hpp"

namespace routetune {

std::unique_ptr<StudyStore> StudyStore::open(const StoreLocation& location) {
    if (location.is_postgres()) return PgStudyStore::open(location, false);
    return SqliteStudyStore::open(location.text, false);
}

namespace {

// ".<UTC time>.old", with the time's colons made dashes (a file name everywhere).
std::string aside_suffix() {
    std::string stamp = iso8601_utc_now();
    for (char& c : stamp) {
        if (c == ':') c = '-';
    }
    return "." + stamp + ".old";
}

}  // namespace

std::unique_ptr<StudyStore> StudyStore::open_new_study(const StoreLocation& location,
                                                       const std::vector<std::filesystem::path>& companions) {
    if (!location.is_postgres()) return SqliteStudyStore::open_fresh(location.text, companions);
    std::unique_ptr<PgStudyStore> store = PgStudyStore::open(location, false);
    if (!store->read_header()) return store;
    std::string suffix = aside_suffix();
    store->set_aside(suffix);
    for (const auto& companion : companions) {
        std::error_code ec;
        if (std::filesystem::exists(companion, ec)) std::filesystem::rename(companion, companion.string() + suffix, ec);
    }
    return store;
}

std::unique_ptr<StudyStore> StudyStore::open_to_continue(const StoreLocation& location) {
    if (!location.is_postgres() && !std::filesystem::exists(location.text))
        throw UsageError("--continue: there is no study to continue at " + location.text +
                         " (drop --continue to start one, or name its store with --store)");
    return open(location);
}

std::unique_ptr<StudyStore> StudyStore::open_read_only(const StoreLocation& location) {
    if (location.is_postgres()) return PgStudyStore::open(location, true);
    return SqliteStudyStore::open(location.text, true);
}

Evaluation pending_evaluation(const Route& route, const std::string& phase, const std::string& started_at) {
    Evaluation pending;
    pending.route = route;
    pending.phase = phase;
    pending.status = Status::Pending;
    pending.started_at = started_at;
    return pending;
}

std::string encode_samples(const std::vector<double>& samples) {
    std::string text;
    char buffer[32];
    for (double sample : samples) {
        auto result = std::to_chars(buffer, buffer + sizeof buffer, sample);
        if (!text.empty()) text += ' ';
        text.append(buffer, result.ptr);
    }
    return text;
}

std::vector<double> decode_samples(std::string_view text) {
    std::vector<double> samples;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find(' ', pos);
        if (end == std::string_view::npos) end = text.size();
        double value = 0;
        auto result = std::from_chars(text.data() + pos, text.data() + end, value);
        if (result.ec != std::errc() || result.ptr != text.data() + end)
            throw RuntimeFailure("corrupt timing samples '" + std::string(text) + "' in a study store");
        samples.push_back(value);
        pos = end + 1;
    }
    return samples;
}

Route parse_stored_route(const std::filesystem::path& store, const std::string& text) {
    Route route;
    std::size_t pos = 0;
    bool canonical = true;
    while (canonical && pos < text.size()) {
        std::size_t end = text.find(' ', pos);
        if (end == std::string::npos) end = text.size();
        std::size_t equals = text.find('=', pos);
        canonical = equals > pos + 1 && equals + 1 < end && text[pos] == '-';
        if (canonical) route.set(text.substr(pos, equals - pos), text.substr(equals + 1, end - equals - 1));
        pos = end + 1;
    }
    if (canonical && route.to_string().size() == text.size()) return route;
    try {
        return Route::parse(text);
    } catch (const std::exception& error) {
        throw RuntimeFailure(store.string() + ": corrupt route '" + text + "' in the store: " + error.what());
    }
}

}  // namespace routetune
