#include "io/matrix_order_io.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "io/io_error.h"
#include "io/matrix_io.h"
#include "io/temporary_files.h"

namespace warplab::io {
namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

}  // namespace

std::string matrixOrderPath(const std::string& matrixPath) { return matrixPath + ".order.csv"; }

namespace {

void writeOrderFile(const std::string& file, const std::string& named, const std::vector<std::size_t>& order,
                    const std::vector<std::string>& names, const std::vector<std::string>& labels) {
    std::ofstream f(file, std::ios::binary | std::ios::trunc);
    if (!f) throw IoError(named, "", "cannot be written");
    f << "position,row,name" << (labels.empty() ? "" : ",label") << '\n';
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::size_t r = order[k];
        f << k << ',' << r << ',' << csvField(r < names.size() ? names[r] : std::to_string(r));
        if (!labels.empty()) f << ',' << csvField(r < labels.size() ? labels[r] : std::string());
        f << '\n';
    }
    f.close();
    if (!f) {
        std::remove(file.c_str());
        throw IoError(named, "", "write failed (disk full?); the previous file is kept");
    }
}

void renameInto(const std::string& tmp, const std::string& path) {
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        throw IoError(path, "", "cannot rename into place: " + ec.message());
    }
}

}  // namespace

void writeMatrixOrder(const std::string& path, const std::vector<std::size_t>& order, const std::vector<std::string>& names,
                      const std::vector<std::string>& labels) {
    const std::string tmp = temporaryPathFor(path);
    writeOrderFile(tmp, path, order, names, labels);
    renameInto(tmp, path);
}

void writeMatrixWithOrder(const std::string& path, const compute::DistanceMatrix& shown, const std::vector<std::size_t>& order,
                          const std::vector<std::string>& names, const std::vector<std::string>& labels) {
    const std::string orderPath = matrixOrderPath(path);
    const std::string tmp = temporaryPathFor(orderPath);
    writeOrderFile(tmp, orderPath, order, names, labels);
    try {
        writeMatrix(path, shown);
    } catch (...) {
        std::remove(tmp.c_str());
        throw;
    }
    renameInto(tmp, orderPath);
}

}  // namespace warplab::io
