#include "spec/case_names.hpp"

#include <cctype>

namespace routetune {

std::string case_file_stem(const std::string& case_name) {
    std::string stem;
    for (char c : case_name) stem += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
    return stem.empty() ? "case" : stem;
}

}  // namespace routetune
