// Reading a program's output as a flat list of numbers: text, raw little-endian binary,
// NumPy .npy, or trtexec's --exportOutput JSON. The numbers are read where they lie, one at a
// time (OutputValues), so a comparison holds the output's bytes and nothing in proportion to
// its count of values (trtexec JSON, read through the JSON library's event parser, is the
// exception: its values are kept as one double each). Malformed output is a result with a
// message, never an exception.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/value_source.hpp"

namespace routetune {

/// How an output file encodes its numbers.
enum class OutputFormat { Text, F32, F64, I32, Npy, TrtexecJson };

/// "text", "f32", "f64", "i32", "npy", "trtexec-json".
std::string_view to_string(OutputFormat format);
/// The inverse of to_string; nullopt for unknown text.
std::optional<OutputFormat> output_format_from_string(std::string_view text);

/// The numbers of one output's bytes in format, read one at a time, in C order. Text: numbers
/// separated by whitespace, commas, semicolons or brackets ("nan", "inf", "-inf" allowed).
/// Raw: little-endian values, the byte count a multiple of the value size. Npy: versions
/// 1.0/2.0/3.0, little-endian or byte-sized dtypes b1 i1 u1 i2 u2 i4 u4 i8 u8 f2 f4 f8, C
/// order (Fortran order only for 1-D data). TrtexecJson: trtexec's --exportOutput file, every
/// tensor's "values" in file order. The bytes must outlive it.
class OutputValues final : public ValueSource {
public:
    /// Reads what comes before the values (sizes, the .npy header, the JSON document).
    OutputValues(std::string_view bytes, OutputFormat format);
    /// False when the output is malformed before its first value (message() says why).
    bool ok() const { return message_.empty(); }
    /// Why it is malformed (before the values, or at the value next() stopped at).
    const std::string& message() const { return message_; }
    /// .npy only: the array's shape; empty for other formats.
    const std::vector<std::size_t>& shape() const { return shape_; }
    /// The next number; false at the end or at a token that is not a number.
    bool next(double& value) override;
    /// Why next() stopped early; empty at a clean end.
    const std::string& error() const override { return message_; }
    /// Back to the first number.
    void restart() override { position_ = start_; }

private:
    bool next_text(double& value);
    bool next_raw(double& value);

    std::string_view bytes_;
    OutputFormat format_;
    char kind_ = 'f';          ///< raw and npy: 'f', 'i', 'u' or 'b'
    std::size_t size_ = 0;     ///< raw and npy: bytes per value
    std::size_t start_ = 0;    ///< where the values begin
    std::size_t position_ = 0;
    std::vector<std::size_t> shape_;
    std::vector<double> json_values_;
    std::string message_;
};

/// An output read as numbers, or why it could not be.
struct NumericOutput {
    bool ok = false;
    std::string message;              ///< why it is malformed (when !ok)
    std::vector<double> values;       ///< in C order
    std::vector<std::size_t> shape;   ///< .npy only: the array's shape; empty for other formats
};

/// Every number of bytes in format (OutputValues, collected).
NumericOutput read_output(std::string_view bytes, OutputFormat format);

}  // namespace routetune
