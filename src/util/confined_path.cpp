// weakly_canonical follows every link of the part of a path that exists and normalises the
// rest, so one comparison of the resolved file against the resolved folder catches a link
// anywhere on the way (the file itself, or a folder above it).
#include "util/confined_path.hpp"

#include <system_error>

namespace routetune {

namespace fs = std::filesystem;

bool lies_within(const fs::path& folder, const fs::path& path) {
    fs::path relative = path.lexically_normal().lexically_relative(folder.lexically_normal());
    return !relative.empty() && *relative.begin() != "..";
}

std::optional<std::string> outside_folder(const fs::path& folder, const fs::path& file) {
    if (!lies_within(folder, file)) return "it lies outside " + folder.string();
    std::error_code error;
    fs::path real_folder = fs::weakly_canonical(folder, error);
    if (error) real_folder = folder.lexically_normal();
    fs::path real_file = fs::weakly_canonical(file, error);
    if (error) return "its path cannot be resolved: " + error.message();
    if (!lies_within(real_folder, real_file))
        return "a symbolic link on its way leads out of " + folder.string() + " (to " + real_file.string() + ")";
    return std::nullopt;
}

}  // namespace routetune
