// Reading a program's output as a flat list of numbers: text, raw little-endian binary,
// NumPy .npy, or trtexec's --exportOutput JSON. Malformed output is a result with a message, never an exception.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace routetune {

/// How an output file encodes its numbers.
enum class OutputFormat { Text, F32, F64, I32, Npy, TrtexecJson };

/// "text", "f32", "f64", "i32", "npy", "trtexec-json".
std::string_view to_string(OutputFormat format);
/// The inverse of to_string; nullopt for unknown text.
std::optional<OutputFormat> output_format_from_string(std::string_view text);

/// An output read as numbers, or why it could not be.
struct NumericOutput {
    bool ok = false;
    std::string message;              ///< why it is malformed (when !ok)
    std::vector<double> values;       ///< in C order
    std::vector<std::size_t> shape;   ///< .npy only: the array's shape; empty for other formats
};

/// Reads bytes in format. Text: numbers separated by whitespace, commas, semicolons or
/// brackets ("nan", "inf", "-inf" allowed). Raw: little-endian values, the byte count a
/// multiple of the value size. Npy: versions 1.0/2.0/3.0, little-endian or byte-sized
/// dtypes b1 i1 u1 i2 u2 i4 u4 i8 u8 f2 f4 f8, C order (Fortran order only for 1-D data).
/// TrtexecJson: trtexec's --exportOutput file, every tensor's "values" in file order.
NumericOutput read_output(std::string_view bytes, OutputFormat format);

}  // namespace routetune
