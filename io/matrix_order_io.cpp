#include "io/matrix_order_io.h"

#include <fstream>

#include "io/io_error.h"

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

void writeMatrixOrder(const std::string& path, const std::vector<std::size_t>& order, const std::vector<std::string>& names,
                      const std::vector<std::string>& labels) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) throw IoError(path, "", "cannot be written");
    f << "position,row,name" << (labels.empty() ? "" : ",label") << '\n';
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::size_t r = order[k];
        f << k << ',' << r << ',' << csvField(r < names.size() ? names[r] : std::to_string(r));
        if (!labels.empty()) f << ',' << csvField(r < labels.size() ? labels[r] : std::string());
        f << '\n';
    }
    f.close();
    if (!f) throw IoError(path, "", "write failed (disk full?)");
}

}  // namespace warplab::io
