// Opening a study store by its location: the one place that knows which backend serves which
// location (a postgresql:// URL: PostgreSQL; anything else is a file path: SQLite). Also the
// exact text encoding of timing samples.
#include "store/study_store.hpp"

#include <charconv>
#include <system_error>

#include "routetune/error.hpp"
#include "store/postgres/pg_study_store.hpp"
#include "store/sqlite/sqlite_study_store.hpp"

namespace routetune {

std::unique_ptr<StudyStore> StudyStore::open(const StoreLocation& location) {
    if (location.is_postgres()) return PgStudyStore::open(location, false);
    return SqliteStudyStore::open(location.text, false);
}

std::unique_ptr<StudyStore> StudyStore::open_fresh(const std::filesystem::path& location,
                                                   const std::vector<std::filesystem::path>& companions) {
    return SqliteStudyStore::open_fresh(location, companions);
}

std::unique_ptr<StudyStore> StudyStore::open_read_only(const StoreLocation& location) {
    if (location.is_postgres()) return PgStudyStore::open(location, true);
    return SqliteStudyStore::open(location.text, true);
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

void StudyStore::clear_log_tails(std::int64_t) {
    throw RuntimeFailure(location() + ": this store backend cannot clear log tails");
}

}  // namespace routetune
