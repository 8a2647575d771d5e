// Text is split on separators and each token parsed with std::from_chars (an optional leading
// '+' is allowed). Raw formats copy fixed-size little-endian values. An .npy file is the magic
// "\x93NUMPY", a version, a little-endian header length (2 bytes in 1.0, 4 in 2.0/3.0) and a
// Python dict literal with 'descr', 'fortran_order' and 'shape', followed by the array bytes;
// the dict is read by looking up those three keys, which is all numpy ever writes there.
// trtexec's --exportOutput JSON ([{"name", "dimensions", "values": [...]}, ...]) is read with
// nlohmann, every tensor's values in file order.
#include "eval/output_reader.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include <nlohmann/json.hpp>

namespace routetune {
namespace {

NumericOutput malformed(std::string message) {
    NumericOutput output;
    output.message = std::move(message);
    return output;
}

bool is_separator(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == ',' ||
           c == ';' || c == '[' || c == ']';
}

NumericOutput read_text(std::string_view bytes) {
    NumericOutput output;
    std::size_t position = 0;
    while (position < bytes.size()) {
        if (is_separator(bytes[position])) {
            ++position;
            continue;
        }
        std::size_t end = position;
        while (end < bytes.size() && !is_separator(bytes[end])) ++end;
        std::string_view token = bytes.substr(position, end - position);
        std::string_view number = token.size() > 1 && token[0] == '+' ? token.substr(1) : token;
        double value = 0;
        auto [stop, error] = std::from_chars(number.data(), number.data() + number.size(), value);
        if (error == std::errc::result_out_of_range) {
            value = std::strtod(std::string(number).c_str(), nullptr);
        } else if (error != std::errc() || stop != number.data() + number.size()) {
            std::string shown(token.substr(0, 40));
            return malformed("text output: '" + shown + "' at byte " + std::to_string(position) +
                             " is not a number");
        }
        output.values.push_back(value);
        position = end;
    }
    output.ok = true;
    return output;
}

template <typename T>
T load_little_endian(const char* data) {
    using Bits = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                 std::conditional_t<sizeof(T) == 2, std::uint16_t,
                 std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    Bits bits = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        bits |= static_cast<Bits>(static_cast<Bits>(static_cast<unsigned char>(data[i])) << (8 * i));
    return std::bit_cast<T>(bits);
}

double half_to_double(std::uint16_t bits) {
    int sign = bits >> 15 ? -1 : 1;
    int exponent = (bits >> 10) & 0x1f;
    int mantissa = bits & 0x3ff;
    if (exponent == 0) return sign * std::ldexp(mantissa, -24);
    if (exponent == 31) return mantissa == 0 ? sign * HUGE_VAL : std::nan("");
    return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

/// Appends count values of one dtype (kind 'f', 'i', 'u' or 'b'; size in bytes) to values.
bool append_values(std::string_view data, char kind, std::size_t size, std::vector<double>& values) {
    std::size_t count = data.size() / size;
    values.reserve(values.size() + count);
    for (std::size_t i = 0; i < count; ++i) {
        const char* item = data.data() + i * size;
        double value = 0;
        if (kind == 'f' && size == 2) value = half_to_double(load_little_endian<std::uint16_t>(item));
        else if (kind == 'f' && size == 4) value = load_little_endian<float>(item);
        else if (kind == 'f' && size == 8) value = load_little_endian<double>(item);
        else if (kind == 'i' && size == 1) value = load_little_endian<std::int8_t>(item);
        else if (kind == 'i' && size == 2) value = load_little_endian<std::int16_t>(item);
        else if (kind == 'i' && size == 4) value = load_little_endian<std::int32_t>(item);
        else if (kind == 'i' && size == 8) value = static_cast<double>(load_little_endian<std::int64_t>(item));
        else if ((kind == 'u' || kind == 'b') && size == 1) value = load_little_endian<std::uint8_t>(item);
        else if (kind == 'u' && size == 2) value = load_little_endian<std::uint16_t>(item);
        else if (kind == 'u' && size == 4) value = load_little_endian<std::uint32_t>(item);
        else if (kind == 'u' && size == 8) value = static_cast<double>(load_little_endian<std::uint64_t>(item));
        else return false;
        values.push_back(value);
    }
    return true;
}

NumericOutput read_raw(std::string_view bytes, char kind, std::size_t size, std::string_view name) {
    if (bytes.size() % size != 0)
        return malformed(std::string(name) + " output: " + std::to_string(bytes.size()) +
                         " bytes is not a multiple of " + std::to_string(size));
    NumericOutput output;
    append_values(bytes, kind, size, output.values);
    output.ok = true;
    return output;
}

/// The text after 'key': in a numpy header dict, up to the value's end; empty if absent.
std::string_view header_value(std::string_view header, std::string_view key) {
    std::string quoted(1, '\'');
    quoted.append(key);
    quoted.push_back('\'');
    std::size_t at = header.find(quoted);
    if (at == std::string_view::npos) return {};
    std::size_t colon = header.find(':', at + quoted.size());
    if (colon == std::string_view::npos) return {};
    std::size_t start = header.find_first_not_of(" ", colon + 1);
    if (start == std::string_view::npos) return {};
    std::size_t end = header[start] == '(' ? header.find(')', start) + 1
                      : header[start] == '\'' ? header.find('\'', start + 1) + 1
                                              : header.find_first_of(",}", start);
    if (end == std::string_view::npos || end == 0 || end > header.size()) return {};
    return header.substr(start, end - start);
}

NumericOutput read_npy(std::string_view bytes) {
    if (bytes.size() < 10 || bytes.substr(0, 6) != std::string_view("\x93NUMPY", 6))
        return malformed("npy output: no NumPy magic at the start (is it really .npy?)");
    int major = static_cast<unsigned char>(bytes[6]);
    std::size_t length_size = major == 1 ? 2 : 4;
    if (major < 1 || major > 3) return malformed("npy output: unknown version " + std::to_string(major));
    if (bytes.size() < 8 + length_size) return malformed("npy output: truncated header");
    std::size_t header_length = length_size == 2 ? load_little_endian<std::uint16_t>(bytes.data() + 8)
                                                 : load_little_endian<std::uint32_t>(bytes.data() + 8);
    std::size_t data_start = 8 + length_size + header_length;
    if (bytes.size() < data_start) return malformed("npy output: truncated header");
    std::string_view header = bytes.substr(8 + length_size, header_length);

    std::string_view descr = header_value(header, "descr");
    if (descr.size() < 4 || descr.front() != '\'')
        return malformed("npy output: unsupported dtype " + std::string(descr.empty() ? "(none)" : descr) +
                         " (structured dtypes are not supported)");
    descr = descr.substr(1, descr.size() - 2);
    char order = descr[0];
    char kind = descr[1];
    std::size_t size = 0;
    std::from_chars(descr.data() + 2, descr.data() + descr.size(), size);
    if (order == '>' && size > 1)
        return malformed("npy output: big-endian dtype '" + std::string(descr) +
                         "' is not supported; save it little-endian (e.g. array.astype('<f4'))");
    if ((order != '<' && order != '|' && order != '=' && order != '>') || std::string_view("fiub").find(kind) == std::string_view::npos ||
        !(size == 1 || size == 2 || size == 4 || size == 8) || (kind == 'b' && size != 1) ||
        (kind == 'f' && size == 1))
        return malformed("npy output: unsupported dtype '" + std::string(descr) +
                         "'; supported: b1 i1 u1 i2 u2 i4 u4 i8 u8 f2 f4 f8");

    std::string_view shape_text = header_value(header, "shape");
    if (shape_text.size() < 2 || shape_text.front() != '(')
        return malformed("npy output: no shape in the header");
    NumericOutput output;
    std::size_t count = 1;
    for (std::size_t i = 1; i < shape_text.size();) {
        if (shape_text[i] < '0' || shape_text[i] > '9') {
            ++i;
            continue;
        }
        std::size_t dimension = 0;
        auto [stop, error] = std::from_chars(shape_text.data() + i, shape_text.data() + shape_text.size(), dimension);
        if (error != std::errc()) return malformed("npy output: bad shape " + std::string(shape_text));
        output.shape.push_back(dimension);
        count *= dimension;
        i = static_cast<std::size_t>(stop - shape_text.data());
    }
    std::size_t dimensions_over_one = 0;
    for (std::size_t dimension : output.shape) dimensions_over_one += dimension > 1 ? 1 : 0;
    if (header_value(header, "fortran_order") == "True" && dimensions_over_one > 1)
        return malformed("npy output: Fortran-order arrays are not supported; save it in C order "
                         "(numpy.ascontiguousarray)");
    std::string_view data = bytes.substr(data_start);
    if (data.size() != count * size)
        return malformed("npy output: shape " + std::string(shape_text) + " of '" + std::string(descr) +
                         "' needs " + std::to_string(count * size) + " data bytes, found " +
                         std::to_string(data.size()));
    append_values(data, kind, size, output.values);
    output.ok = true;
    return output;
}

NumericOutput read_trtexec_json(std::string_view bytes) {
    NumericOutput output;
    try {
        auto doc = nlohmann::json::parse(bytes);
        for (const auto& tensor : doc) {
            for (const auto& value : tensor.at("values")) output.values.push_back(value.get<double>());
        }
    } catch (const nlohmann::json::exception& e) {
        return malformed(std::string("trtexec output file: malformed JSON: ") + e.what());
    }
    output.ok = true;
    return output;
}

}  // namespace

std::string_view to_string(OutputFormat format) {
    switch (format) {
        case OutputFormat::Text: return "text";
        case OutputFormat::F32: return "f32";
        case OutputFormat::F64: return "f64";
        case OutputFormat::I32: return "i32";
        case OutputFormat::Npy: return "npy";
        case OutputFormat::TrtexecJson: return "trtexec-json";
    }
    return "text";
}

std::optional<OutputFormat> output_format_from_string(std::string_view text) {
    for (OutputFormat format : {OutputFormat::Text, OutputFormat::F32, OutputFormat::F64, OutputFormat::I32,
                                OutputFormat::Npy, OutputFormat::TrtexecJson}) {
        if (to_string(format) == text) return format;
    }
    return std::nullopt;
}

NumericOutput read_output(std::string_view bytes, OutputFormat format) {
    switch (format) {
        case OutputFormat::Text: return read_text(bytes);
        case OutputFormat::F32: return read_raw(bytes, 'f', 4, "f32");
        case OutputFormat::F64: return read_raw(bytes, 'f', 8, "f64");
        case OutputFormat::I32: return read_raw(bytes, 'i', 4, "i32");
        case OutputFormat::Npy: return read_npy(bytes);
        case OutputFormat::TrtexecJson: return read_trtexec_json(bytes);
    }
    return malformed("unknown output format");
}

}  // namespace routetune
