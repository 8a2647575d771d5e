// Splitting route expression text into tokens with their positions (internal to src/routes).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace routetune {

/// One expression token: its text (whitespace inside brackets removed) and where it starts.
struct ExpressionToken {
    std::string text;
    std::string where;  ///< "--routes: column 12" or "routes.txt:3"
};

/// Splits text into tokens at whitespace outside brackets. In file mode '#' starts a comment
/// up to the end of the line and positions are "source:line"; otherwise "source: column N".
/// Throws UsageError for unbalanced brackets, naming the token and its position.
std::vector<ExpressionToken> lex_expression(std::string_view text, const std::string& source, bool file_mode);

}  // namespace routetune
