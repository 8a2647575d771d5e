// The expression lexer walks the text once, tracking the line, the column and the bracket
// depth. Whitespace ends a token only at depth zero; inside brackets it is dropped, so a list
// may span lines in a file. A ']' with no open '[' or an end of text inside brackets is an
// unbalanced-bracket error naming the token's start.
#include "routes/expression_lexer.hpp"

#include <cctype>

#include "routetune/error.hpp"
#include "util/excerpt.hpp"

namespace routetune {

namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string position(const std::string& source, bool file_mode, std::size_t line, std::size_t column) {
    if (file_mode) return source + ":" + std::to_string(line);
    return source + ": column " + std::to_string(column);
}

}  // namespace

std::vector<ExpressionToken> lex_expression(std::string_view text, const std::string& source, bool file_mode) {
    std::vector<ExpressionToken> tokens;
    std::size_t line = 1, column = 1, pos = 0;
    auto advance = [&] {
        if (text[pos] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
        ++pos;
    };
    while (pos < text.size()) {
        if (is_space(text[pos])) {
            advance();
            continue;
        }
        if (file_mode && text[pos] == '#') {
            while (pos < text.size() && text[pos] != '\n') advance();
            continue;
        }
        ExpressionToken token;
        token.where = position(source, file_mode, line, column);
        int depth = 0;
        while (pos < text.size() && (depth > 0 || !is_space(text[pos]))) {
            char c = text[pos];
            if (file_mode && c == '#' && depth > 0) {
                while (pos < text.size() && text[pos] != '\n') advance();
                continue;
            }
            if (c == '[') ++depth;
            if (c == ']' && --depth < 0)
                throw UsageError(token.where + ": token " + quoted_excerpt(token.text + "]") + ": unbalanced ']' with no '[' before it");
            if (!is_space(c)) token.text += c;
            advance();
        }
        if (depth > 0)
            throw UsageError(token.where + ": token " + quoted_excerpt(token.text) + ": unbalanced '[' (no closing ']' before the end of " +
                             (file_mode ? "the file" : "the expression") + ")");
        tokens.push_back(std::move(token));
    }
    return tokens;
}

}  // namespace routetune
