#include "io/npy.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "io/io_error.h"

namespace warplab::io {

namespace {

// Value of `key` in the header dict: the text after "'key':" up to the next top-level comma.
std::string_view dictValue(std::string_view dict, std::string_view key) {
    std::string quoted = "'" + std::string(key) + "'";
    std::size_t k = dict.find(quoted);
    if (k == std::string_view::npos) return {};
    std::size_t colon = dict.find(':', k + quoted.size());
    if (colon == std::string_view::npos) return {};
    std::size_t b = colon + 1;
    while (b < dict.size() && dict[b] == ' ') ++b;
    std::size_t e = b;
    int depth = 0;
    while (e < dict.size()) {
        char c = dict[e];
        if (c == '(') ++depth;
        if (c == ')') --depth;
        if ((c == ',' && depth == 0) || c == '}') break;
        ++e;
    }
    return dict.substr(b, e - b);
}

template <typename T>
T loadLE(const unsigned char* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    static_assert(std::endian::native == std::endian::little, "NPY reading assumes a little-endian host");
    return v;
}

}  // namespace

std::string npyHeader(const std::vector<std::size_t>& shape, const std::string& descr) {
    std::string dims;
    for (std::size_t i = 0; i < shape.size(); ++i) dims += std::to_string(shape[i]) + (shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : ""));
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
    std::size_t total = 10 + dict.size() + 1;
    std::size_t pad = (64 - total % 64) % 64;
    dict.append(pad, ' ');
    dict += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    const std::size_t len = dict.size();
    out += char(len & 0xff);
    out += char((len >> 8) & 0xff);
    return out + dict;
}

namespace {

NpyLayout parseNpyHeader(const std::string& file, std::string_view bytes) {
    if (bytes.size() < 10 || bytes.substr(0, 6) != "\x93NUMPY")
        throw IoError(file, "magic", "not a NumPy .npy file");
    const auto* u = reinterpret_cast<const unsigned char*>(bytes.data());
    const int major = u[6];
    std::size_t headerLen, start;
    if (major == 1) {
        headerLen = u[8] | (std::size_t(u[9]) << 8);
        start = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) throw IoError(file, "header", "truncated");
        headerLen = u[8] | (std::size_t(u[9]) << 8) | (std::size_t(u[10]) << 16) | (std::size_t(u[11]) << 24);
        start = 12;
    } else {
        throw IoError(file, "version", "unsupported .npy version " + std::to_string(major));
    }
    if (headerLen > bytes.size() - start) throw IoError(file, "header", "truncated header");
    std::string_view dict = bytes.substr(start, headerLen);
    std::string_view descr = dictValue(dict, "descr");
    std::string_view order = dictValue(dict, "fortran_order");
    std::string_view shapeText = dictValue(dict, "shape");
    if (descr.size() < 5 || descr.front() != '\'' || descr.back() != '\'')
        throw IoError(file, "descr", "missing or unreadable dtype");
    NpyLayout l;
    l.type = std::string(descr.substr(1, descr.size() - 2));
    l.fortran = order.substr(0, 4) == "True";
    if (!l.fortran && order.substr(0, 5) != "False") throw IoError(file, "fortran_order", "missing or unreadable");
    if (shapeText.size() < 2 || shapeText.front() != '(' || shapeText.back() != ')')
        throw IoError(file, "shape", "missing or unreadable");
    std::string_view dims = shapeText.substr(1, shapeText.size() - 2);
    std::size_t pos = 0;
    while (pos < dims.size()) {
        while (pos < dims.size() && (dims[pos] == ' ' || dims[pos] == ',')) ++pos;
        if (pos >= dims.size()) break;
        std::size_t v = 0;
        auto [p, ec] = std::from_chars(dims.data() + pos, dims.data() + dims.size(), v);
        if (ec != std::errc()) throw IoError(file, "shape", "not a tuple of sizes: " + std::string(shapeText));
        l.shape.push_back(v);
        pos = std::size_t(p - dims.data());
    }
    if (l.shape.empty() || l.shape.size() > 2)
        throw IoError(file, "shape", "expected 1 or 2 dimensions, got " + std::to_string(l.shape.size()));
    if (l.type == "<f8" || l.type == "<i8") l.valueSize = 8;
    else if (l.type == "<f4" || l.type == "<i4") l.valueSize = 4;
    else if (l.type == "<i2") l.valueSize = 2;
    else if (l.type == "|i1" || l.type == "|u1") l.valueSize = 1;
    else throw IoError(file, "descr", "unsupported dtype '" + l.type + "' (use float64 or float32, little-endian)");
    l.count = l.shape.size() == 2 ? l.shape[0] * l.shape[1] : l.shape[0];
    if (l.shape.size() == 2 && l.shape[1] != 0 && l.count / l.shape[1] != l.shape[0])
        throw IoError(file, "shape", "too large");
    l.dataStart = start + headerLen;
    return l;
}

template <typename T>
void decodeAs(const unsigned char* d, std::size_t count, double* out) {
    for (std::size_t i = 0; i < count; ++i) out[i] = double(loadLE<T>(d + i * sizeof(T)));
}

// The type is told apart once, not per value: a 200 MB array of series decodes at memory speed.
void decodeNpy(const NpyLayout& l, const unsigned char* d, std::size_t count, double* out) {
    if (l.type == "<f8") decodeAs<double>(d, count, out);
    else if (l.type == "<f4") decodeAs<float>(d, count, out);
    else if (l.type == "<i8") decodeAs<int64_t>(d, count, out);
    else if (l.type == "<i4") decodeAs<int32_t>(d, count, out);
    else if (l.type == "<i2") decodeAs<int16_t>(d, count, out);
    else if (l.type == "|i1") decodeAs<int8_t>(d, count, out);
    else decodeAs<uint8_t>(d, count, out);
}

// "the shape needs N values but the file holds M" when `available` bytes of values are too few.
void checkHolds(const std::string& file, const NpyLayout& l, std::size_t available) {
    if (l.count > available / l.valueSize)
        throw IoError(file, "data", "the shape needs " + std::to_string(l.count) + " values but the file holds " +
                                        std::to_string(available / l.valueSize));
}

}  // namespace

NpyArray parseNpy(const std::string& file, std::string_view bytes) {
    const NpyLayout l = parseNpyHeader(file, bytes);
    checkHolds(file, l, bytes.size() - l.dataStart);
    NpyArray a;
    a.shape = l.shape;
    a.data.resize(l.count);
    decodeNpy(l, reinterpret_cast<const unsigned char*>(bytes.data()) + l.dataStart, l.count, a.data.data());
    if (l.fortran && a.shape.size() == 2) {  // column-major on disk: transpose to C order
        std::vector<double> c(l.count);
        const std::size_t r = a.shape[0], k = a.shape[1];
        for (std::size_t i = 0; i < r; ++i)
            for (std::size_t j = 0; j < k; ++j) c[i * k + j] = a.data[j * r + i];
        a.data.swap(c);
    }
    return a;
}

NpyLayout parseNpyLayout(const std::string& file, std::string_view bytes) {
    const NpyLayout l = parseNpyHeader(file, bytes);
    checkHolds(file, l, bytes.size() - l.dataStart);
    return l;
}

void decodeNpyValues(const NpyLayout& layout, std::string_view bytes, std::size_t first, std::size_t count, double* out) {
    decodeNpy(layout, reinterpret_cast<const unsigned char*>(bytes.data()) + layout.dataStart + first * layout.valueSize,
              count, out);
}

NpyLayout readNpyLayout(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path, "", "cannot open for reading");
    std::string head(12, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(std::size_t(in.gcount()));
    // The header's length is in its first 12 bytes; then the whole header (at most 4 GiB by
    // the format, in practice a few hundred bytes).
    std::size_t want = head.size();
    if (head.size() >= 10 && head.compare(0, 6, "\x93NUMPY") == 0) {
        const auto* u = reinterpret_cast<const unsigned char*>(head.data());
        want = u[6] == 1 ? 10 + (u[8] | (std::size_t(u[9]) << 8))
                         : 12 + (u[8] | (std::size_t(u[9]) << 8) | (std::size_t(u[10]) << 16) |
                                 (std::size_t(u[11]) << 24));
    }
    in.clear();
    in.seekg(0, std::ios::end);
    const std::size_t fileSize = std::size_t(in.tellg());
    in.seekg(0);
    // A corrupt length asks for no more than the file holds (parseNpyHeader then says "truncated").
    std::string header(std::min(std::max(want, head.size()), fileSize), '\0');
    in.read(header.data(), std::streamsize(header.size()));
    header.resize(std::size_t(in.gcount()));
    NpyLayout l = parseNpyHeader(path, header);
    checkHolds(path, l, fileSize - std::min(fileSize, l.dataStart));
    return l;
}

std::vector<double> readNpyValues(const std::string& path, const NpyLayout& layout, std::size_t first,
                                  std::size_t count) {
    if (first > layout.count || count > layout.count - first)
        throw IoError(path, "data", "values [" + std::to_string(first) + ", " + std::to_string(first + count) +
                                        ") lie outside the " + std::to_string(layout.count) + " of the array");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path, "", "cannot open for reading");
    std::string bytes(count * layout.valueSize, '\0');
    in.seekg(std::streamoff(layout.dataStart + first * layout.valueSize));
    in.read(bytes.data(), std::streamsize(bytes.size()));
    if (std::size_t(in.gcount()) != bytes.size())
        throw IoError(path, "data", "the file ended before value " + std::to_string(first + count) + " (truncated?)");
    std::vector<double> out(count);
    decodeNpy(layout, reinterpret_cast<const unsigned char*>(bytes.data()), count, out.data());
    return out;
}

NpyArray readNpy(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw IoError(path, "", "cannot open for reading");
    // The whole file in one read into a buffer of its size (no stream copy of it); a stream
    // that cannot tell its size is read through a string stream.
    const std::streamoff size = in.tellg();
    if (size < 0) {
        in.clear();
        in.seekg(0);
        std::ostringstream ss;
        ss << in.rdbuf();
        return parseNpy(path, ss.str());
    }
    std::string bytes(std::size_t(size), '\0');
    in.seekg(0);
    in.read(bytes.data(), std::streamsize(bytes.size()));
    bytes.resize(std::size_t(in.gcount()));
    return parseNpy(path, bytes);
}

}  // namespace warplab::io
