#include "io/npy.h"

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

std::string npyHeader(const std::vector<std::size_t>& shape) {
    std::string dims;
    for (std::size_t i = 0; i < shape.size(); ++i) dims += std::to_string(shape[i]) + (shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : ""));
    std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + dims + "), }";
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

NpyArray parseNpy(const std::string& file, std::string_view bytes) {
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
    std::string type(descr.substr(1, descr.size() - 2));
    const bool fortran = order.substr(0, 4) == "True";
    if (!fortran && order.substr(0, 5) != "False") throw IoError(file, "fortran_order", "missing or unreadable");
    if (shapeText.size() < 2 || shapeText.front() != '(' || shapeText.back() != ')')
        throw IoError(file, "shape", "missing or unreadable");
    NpyArray a;
    std::string_view dims = shapeText.substr(1, shapeText.size() - 2);
    std::size_t pos = 0;
    while (pos < dims.size()) {
        while (pos < dims.size() && (dims[pos] == ' ' || dims[pos] == ',')) ++pos;
        if (pos >= dims.size()) break;
        std::size_t v = 0;
        auto [p, ec] = std::from_chars(dims.data() + pos, dims.data() + dims.size(), v);
        if (ec != std::errc()) throw IoError(file, "shape", "not a tuple of sizes: " + std::string(shapeText));
        a.shape.push_back(v);
        pos = std::size_t(p - dims.data());
    }
    if (a.shape.empty() || a.shape.size() > 2)
        throw IoError(file, "shape", "expected 1 or 2 dimensions, got " + std::to_string(a.shape.size()));
    std::size_t size;
    if (type == "<f8" || type == "<i8") size = 8;
    else if (type == "<f4" || type == "<i4") size = 4;
    else if (type == "<i2") size = 2;
    else if (type == "|i1" || type == "|u1") size = 1;
    else throw IoError(file, "descr", "unsupported dtype '" + type + "' (use float64 or float32, little-endian)");
    const std::size_t count = a.shape.size() == 2 ? a.shape[0] * a.shape[1] : a.shape[0];
    if (a.shape.size() == 2 && a.shape[1] != 0 && count / a.shape[1] != a.shape[0])
        throw IoError(file, "shape", "too large");
    const std::size_t dataStart = start + headerLen;
    if (count > (bytes.size() - dataStart) / size)
        throw IoError(file, "data", "the shape needs " + std::to_string(count) + " values but the file holds " +
                                        std::to_string((bytes.size() - dataStart) / size));
    a.data.resize(count);
    const unsigned char* d = u + dataStart;
    for (std::size_t i = 0; i < count; ++i) {
        const unsigned char* p = d + i * size;
        double v;
        if (type == "<f8") v = loadLE<double>(p);
        else if (type == "<f4") v = loadLE<float>(p);
        else if (type == "<i8") v = double(loadLE<int64_t>(p));
        else if (type == "<i4") v = loadLE<int32_t>(p);
        else if (type == "<i2") v = loadLE<int16_t>(p);
        else if (type == "|i1") v = static_cast<int8_t>(*p);
        else v = *p;
        a.data[i] = v;
    }
    if (fortran && a.shape.size() == 2) {  // column-major on disk: transpose to C order
        std::vector<double> c(count);
        const std::size_t r = a.shape[0], k = a.shape[1];
        for (std::size_t i = 0; i < r; ++i)
            for (std::size_t j = 0; j < k; ++j) c[i * k + j] = a.data[j * r + i];
        a.data.swap(c);
    }
    return a;
}

NpyArray readNpy(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path, "", "cannot open for reading");
    std::ostringstream ss;
    ss << in.rdbuf();
    return parseNpy(path, ss.str());
}

}  // namespace warplab::io
