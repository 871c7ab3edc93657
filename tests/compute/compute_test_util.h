// Helpers shared by the compute tests: random series with a fixed seed, a plain UCR parser (the
// tests read the shared UCR files directly, independent of io/), and the fp32 tolerance.
#pragma once
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "compute/core/series.h"

namespace warplab::compute::testutil {

// A random walk: like EEG, neighbouring samples are correlated and warping paths are not trivial.
inline Series randomWalk(std::size_t length, std::mt19937& rng, std::size_t dims = 1) {
    std::normal_distribution<float> step(0.0f, 1.0f);
    std::vector<float> v(length * dims);
    std::vector<float> x(dims, 0.0f);
    for (std::size_t i = 0; i < length; ++i)
        for (std::size_t c = 0; c < dims; ++c) v[i * dims + c] = (x[c] += step(rng));
    return Series(std::move(v), dims);
}

// UCR text: one series per line, whitespace/comma separated, the first value the class label.
inline SeriesSet readUcr(const std::string& path) {
    SeriesSet out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        for (char& ch : line)
            if (ch == ',') ch = ' ';
        std::istringstream ss(line);
        double label;
        if (!(ss >> label)) continue;
        std::vector<float> v;
        for (double x; ss >> x;) v.push_back(float(x));
        out.emplace_back(std::move(v), 1, "line" + std::to_string(out.size() + 1));
    }
    return out;
}

// cpu.simd accumulates in fp32. Costs are non-negative, so the accumulated cost along a path
// of at most n+m-1 cells carries a relative rounding error of at most about (n+m) * 2^-24
// (one rounding per addition, plus two in each cost); for n = m = 1024 that is 1.2e-4, which
// is the tolerance at that size (observed errors are near 2e-6). Zero stays exactly zero.
// TWED adds up to four non-negative terms per step (and timestamps rounded to fp32), so its
// bound is four times that: `roundingsPerStep` = 4.
inline bool closeFp32(double got, double ref, std::size_t n, std::size_t m, int roundingsPerStep = 1) {
    const double tol = double(roundingsPerStep) * double(n + m + 4) * std::ldexp(1.0, -24);
    return std::fabs(got - ref) <= tol * std::fabs(ref) + 1e-30;
}

}  // namespace warplab::compute::testutil
