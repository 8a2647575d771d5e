// Case names become file names (a case's output, its saved reference); two names that map to
// one file would share a reference and give a wrong verdict, so such a spec is refused.
#pragma once

#include <string>

namespace routetune {

/// A file-name-safe form of a case name ("typical", "case 2" -> "case_2").
std::string case_file_stem(const std::string& case_name);

}  // namespace routetune
