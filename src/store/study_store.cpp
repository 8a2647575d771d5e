// Opening a study store by its location: the one place that knows which backend serves which
// location (a file path: SQLite). Also the exact text encoding of timing samples.
#include "store/study_store.hpp"

#include <charconv>
#include <system_error>

#include "routetune/error.hpp"
#include "store/sqlite/sqlite_study_store.hpp"

namespace routetune {

std::unique_ptr<StudyStore> StudyStore::open(const std::filesystem::path& location) {
    return SqliteStudyStore::open(location, false);
}

std::unique_ptr<StudyStore> StudyStore::open_fresh(const std::filesystem::path& location,
                                                   const std::vector<std::filesystem::path>& companions) {
    return SqliteStudyStore::open_fresh(location, companions);
}

std::unique_ptr<StudyStore> StudyStore::open_read_only(const std::filesystem::path& location) {
    return SqliteStudyStore::open(location, true);
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

}  // namespace routetune
