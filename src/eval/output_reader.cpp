// Text is split on separators and each token parsed with std::from_chars (an optional leading
// '+' is allowed) when next() reaches it. Raw formats decode fixed-size little-endian values at
// their offsets. An .npy file is the magic "\x93NUMPY", a version, a little-endian header length
// (2 bytes in 1.0, 4 in 2.0/3.0) and a Python dict literal with 'descr', 'fortran_order' and
// 'shape', followed by the array bytes; the dict is read by looking up those three keys, which
// is all numpy ever writes there, and the data is then read like a raw format. trtexec's
// --exportOutput JSON ([{"name", "dimensions", "values": [...]}, ...]) goes through nlohmann's
// event (SAX) parser, which keeps every tensor's values in file order and nothing else.
#include "eval/output_reader.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include <nlohmann/json.hpp>

namespace routetune {
namespace {

bool is_separator(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == ',' ||
           c == ';' || c == '[' || c == ']';
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

/// The value of one dtype (kind 'f', 'i', 'u' or 'b'; size in bytes) at item.
double decode_value(const char* item, char kind, std::size_t size) {
    if (kind == 'f' && size == 2) return half_to_double(load_little_endian<std::uint16_t>(item));
    if (kind == 'f' && size == 4) return load_little_endian<float>(item);
    if (kind == 'f' && size == 8) return load_little_endian<double>(item);
    if (kind == 'i' && size == 1) return load_little_endian<std::int8_t>(item);
    if (kind == 'i' && size == 2) return load_little_endian<std::int16_t>(item);
    if (kind == 'i' && size == 4) return load_little_endian<std::int32_t>(item);
    if (kind == 'i' && size == 8) return static_cast<double>(load_little_endian<std::int64_t>(item));
    if ((kind == 'u' || kind == 'b') && size == 1) return load_little_endian<std::uint8_t>(item);
    if (kind == 'u' && size == 2) return load_little_endian<std::uint16_t>(item);
    if (kind == 'u' && size == 4) return load_little_endian<std::uint32_t>(item);
    return static_cast<double>(load_little_endian<std::uint64_t>(item));  // 'u', 8
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

// Where an .npy file's data starts, its dtype and shape; a message when it is malformed.
struct NpyLayout {
    std::size_t data_start = 0;
    char kind = 'f';
    std::size_t size = 0;
    std::vector<std::size_t> shape;
    std::string message;
};

NpyLayout read_npy_header(std::string_view bytes) {
    NpyLayout layout;
    auto malformed = [&](std::string message) {
        layout.message = std::move(message);
        return layout;
    };
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
    std::size_t count = 1;
    bool overflow = false;
    for (std::size_t i = 1; i < shape_text.size();) {
        if (shape_text[i] < '0' || shape_text[i] > '9') {
            ++i;
            continue;
        }
        std::size_t dimension = 0;
        auto [stop, error] = std::from_chars(shape_text.data() + i, shape_text.data() + shape_text.size(), dimension);
        if (error != std::errc()) return malformed("npy output: bad shape " + std::string(shape_text));
        layout.shape.push_back(dimension);
        overflow = overflow || (dimension != 0 && count > SIZE_MAX / dimension);
        count *= dimension;
        i = static_cast<std::size_t>(stop - shape_text.data());
    }
    std::size_t dimensions_over_one = 0;
    for (std::size_t dimension : layout.shape) dimensions_over_one += dimension > 1 ? 1 : 0;
    if (header_value(header, "fortran_order") == "True" && dimensions_over_one > 1)
        return malformed("npy output: Fortran-order arrays are not supported; save it in C order "
                         "(numpy.ascontiguousarray)");
    std::size_t data_bytes = bytes.size() - data_start;
    overflow = overflow || count > SIZE_MAX / size;
    if (overflow || data_bytes != count * size)
        return malformed("npy output: shape " + std::string(shape_text) + " of '" + std::string(descr) + "' needs " +
                         (overflow ? std::string("more than 2^64") : std::to_string(count * size)) +
                         " data bytes, found " + std::to_string(data_bytes));
    layout.data_start = data_start;
    layout.kind = kind;
    layout.size = size;
    return layout;
}

// trtexec's JSON as events: an array (or object) of tensors, each an object whose "values" is
// a list of numbers, collected in file order; anything else stops the parse with a message.
class TrtexecValues : public nlohmann::json_sax<nlohmann::json> {
public:
    explicit TrtexecValues(std::vector<double>& values) : values_(values) {}
    std::string message;

    bool null() override { return scalar(false, 0); }
    bool boolean(bool) override { return scalar(false, 0); }
    bool number_integer(number_integer_t value) override { return scalar(true, static_cast<double>(value)); }
    bool number_unsigned(number_unsigned_t value) override { return scalar(true, static_cast<double>(value)); }
    bool number_float(number_float_t value, const string_t&) override { return scalar(true, value); }
    bool string(string_t&) override { return scalar(false, 0); }
    bool binary(binary_t&) override { return scalar(false, 0); }
    bool start_object(std::size_t) override { return open(true); }
    bool start_array(std::size_t) override { return open(false); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& name) override {
        values_key_ = name == "values";
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
        return fail(std::string("malformed JSON: ") + e.what());
    }

private:
    enum class Context { Top, Tensor, Values, Skipped };
    struct Level {
        Context context;
        bool has_values = false;
    };

    bool fail(std::string text) {
        if (message.empty()) message = "trtexec output file: " + std::move(text);
        return false;
    }
    std::string tensor() const { return "tensor #" + std::to_string(tensors_); }
    bool scalar(bool is_number, double value) {
        if (levels_.empty() || levels_.back().context == Context::Top)
            return fail("expected a list of tensors, each an object with \"values\"");
        if (levels_.back().context == Context::Values) {
            if (!is_number) return fail(tensor() + " has a value that is not a number");
            values_.push_back(value);
        } else if (levels_.back().context == Context::Tensor && values_key_) {
            return fail(tensor() + ": \"values\" is not a list");
        }
        return true;
    }
    bool open(bool object) {
        if (levels_.empty()) {
            levels_.push_back({Context::Top});
            return true;
        }
        Level& here = levels_.back();
        switch (here.context) {
            case Context::Top:
                if (!object) return fail("expected a list of tensors, each an object with \"values\"");
                ++tensors_;
                levels_.push_back({Context::Tensor});
                return true;
            case Context::Tensor:
                if (!values_key_) {
                    levels_.push_back({Context::Skipped});
                    return true;
                }
                if (object) return fail(tensor() + ": \"values\" is not a list");
                here.has_values = true;
                values_key_ = false;
                levels_.push_back({Context::Values});
                return true;
            case Context::Values: return fail(tensor() + " has a value that is not a number");
            case Context::Skipped: levels_.push_back({Context::Skipped}); return true;
        }
        return true;
    }
    bool close() {
        if (levels_.empty()) return fail("unbalanced document");
        Level here = levels_.back();
        levels_.pop_back();
        if (here.context == Context::Tensor && !here.has_values) return fail(tensor() + " has no \"values\"");
        values_key_ = false;
        return true;
    }

    std::vector<double>& values_;
    std::vector<Level> levels_;
    std::size_t tensors_ = 0;
    bool values_key_ = false;
};

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


OutputValues::OutputValues(std::string_view bytes, OutputFormat format) : bytes_(bytes), format_(format) {
    auto raw = [&](char kind, std::size_t size, const char* name) {
        kind_ = kind;
        size_ = size;
        if (bytes.size() % size != 0)
            message_ = std::string(name) + " output: " + std::to_string(bytes.size()) + " bytes is not a multiple of " +
                       std::to_string(size);
    };
    switch (format) {
        case OutputFormat::Text: break;
        case OutputFormat::F32: raw('f', 4, "f32"); break;
        case OutputFormat::F64: raw('f', 8, "f64"); break;
        case OutputFormat::I32: raw('i', 4, "i32"); break;
        case OutputFormat::Npy: {
            NpyLayout layout = read_npy_header(bytes);
            message_ = layout.message;
            kind_ = layout.kind;
            size_ = layout.size;
            start_ = layout.data_start;
            shape_ = std::move(layout.shape);
            break;
        }
        case OutputFormat::TrtexecJson: {
            TrtexecValues handler(json_values_);
            nlohmann::json::sax_parse(bytes.begin(), bytes.end(), &handler);
            message_ = handler.message;
            break;
        }
    }
    position_ = start_;
}

bool OutputValues::next(double& value) {
    if (!message_.empty()) return false;
    switch (format_) {
        case OutputFormat::Text: return next_text(value);
        case OutputFormat::TrtexecJson:
            if (position_ >= json_values_.size()) return false;
            value = json_values_[position_++];
            return true;
        default: return next_raw(value);
    }
}

bool OutputValues::next_text(double& value) {
    while (position_ < bytes_.size() && is_separator(bytes_[position_])) ++position_;
    if (position_ >= bytes_.size()) return false;
    std::size_t end = position_;
    while (end < bytes_.size() && !is_separator(bytes_[end])) ++end;
    std::string_view token = bytes_.substr(position_, end - position_);
    std::string_view number = token.size() > 1 && token[0] == '+' ? token.substr(1) : token;
    auto [stop, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (error == std::errc::result_out_of_range) {
        value = std::strtod(std::string(number).c_str(), nullptr);
    } else if (error != std::errc() || stop != number.data() + number.size()) {
        message_ = "text output: '" + std::string(token.substr(0, 40)) + "' at byte " + std::to_string(position_) +
                   " is not a number";
        return false;
    }
    position_ = end;
    return true;
}

bool OutputValues::next_raw(double& value) {
    if (position_ + size_ > bytes_.size()) return false;
    value = decode_value(bytes_.data() + position_, kind_, size_);
    position_ += size_;
    return true;
}

NumericOutput read_output(std::string_view bytes, OutputFormat format) {
    NumericOutput output;
    OutputValues values(bytes, format);
    for (double value = 0; values.next(value);) output.values.push_back(value);
    output.message = values.message();
    output.ok = output.message.empty();
    output.shape = values.shape();
    if (!output.ok) output.values.clear();
    return output;
}

}  // namespace routetune
