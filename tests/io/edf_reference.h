// Test-only, deliberately naive EDF/BDF reading straight from the bytes (fixed header offsets,
// digital -> physical with the header's calibration), independent of io/'s readers, so the
// tests compare the product against a second reading.
#pragma once
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace edfref {

struct Signal {
    std::string label, unit;
    double pmin, pmax;
    long dmin, dmax;
    long spr;
    long offset;  // bytes into a data record
};

struct File {
    std::string bytes;
    bool bdf = false;
    long headerBytes = 0, records = 0, ns = 0, recordBytes = 0;
    double recordS = 0;
    std::vector<Signal> sig;

    static std::string field(const std::string& b, std::size_t pos, std::size_t len) {
        std::string s = b.substr(pos, len);
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s;
    }

    explicit File(const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        bytes = ss.str();
        bdf = static_cast<unsigned char>(bytes[0]) == 0xff;
        headerBytes = std::stol(field(bytes, 184, 8));
        records = std::stol(field(bytes, 236, 8));
        recordS = std::stod(field(bytes, 244, 8));
        ns = std::stol(field(bytes, 252, 4));
        sig.resize(ns);
        std::size_t p = 256;
        for (long i = 0; i < ns; ++i) sig[i].label = field(bytes, p + 16 * i, 16);
        p += 16 * ns + 80 * ns;
        for (long i = 0; i < ns; ++i) sig[i].unit = field(bytes, p + 8 * i, 8);
        p += 8 * ns;
        for (long i = 0; i < ns; ++i) sig[i].pmin = std::stod(field(bytes, p + 8 * i, 8));
        p += 8 * ns;
        for (long i = 0; i < ns; ++i) sig[i].pmax = std::stod(field(bytes, p + 8 * i, 8));
        p += 8 * ns;
        for (long i = 0; i < ns; ++i) sig[i].dmin = std::stol(field(bytes, p + 8 * i, 8));
        p += 8 * ns;
        for (long i = 0; i < ns; ++i) sig[i].dmax = std::stol(field(bytes, p + 8 * i, 8));
        p += 8 * ns + 80 * ns;
        long off = 0;
        for (long i = 0; i < ns; ++i) {
            sig[i].spr = std::stol(field(bytes, p + 8 * i, 8));
            sig[i].offset = off;
            off += sig[i].spr * (bdf ? 3 : 2);
        }
        recordBytes = off;
    }

    long digital(long s, long k) const {
        const long rec = k / sig[s].spr, idx = k % sig[s].spr;
        const auto* q = reinterpret_cast<const unsigned char*>(bytes.data()) + headerBytes + rec * recordBytes +
                        sig[s].offset + idx * (bdf ? 3 : 2);
        if (bdf) {
            long v = q[0] | (long(q[1]) << 8) | (long(q[2]) << 16);
            return v >= 0x800000 ? v - 0x1000000 : v;
        }
        return int16_t(q[0] | (q[1] << 8));
    }

    // Linear map of [dmin, dmax] onto [pmin, pmax].
    double physical(long s, long k) const {
        const Signal& g = sig[s];
        return g.pmin + (double(digital(s, k)) - double(g.dmin)) * (g.pmax - g.pmin) / double(g.dmax - g.dmin);
    }
};

}  // namespace edfref
