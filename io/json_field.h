// One field of a JSON object into a C++ value, for the session and parameter readers: a
// missing key leaves the value as it is, a wrong type or a number the value cannot hold is an
// IoError naming the file and the field. nlohmann's own conversion casts a floating-point
// number to an integer unchecked (8.9e104 into an int is undefined behaviour: found by
// fuzz_text_readers in a session's "filters.order").
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "io/io_error.h"

namespace warplab::io {

template <typename T>
void readJsonField(const nlohmann::json& j, const char* key, T& dst, const std::string& file, const std::string& field) {
    auto it = j.find(key);
    if (it == j.end()) return;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        using L = std::numeric_limits<T>;
        const auto outOfRange = [&] {
            return IoError(file, field,
                           "not a whole number from " + std::to_string(L::min()) + " to " + std::to_string(L::max()) + ": " +
                               it->dump());
        };
        if (it->is_number_unsigned()) {
            const std::uint64_t v = it->get<std::uint64_t>();
            if (v > std::uint64_t(L::max())) throw outOfRange();
            dst = T(v);
        } else if (it->is_number_integer()) {
            const std::int64_t v = it->get<std::int64_t>();
            if ((std::is_unsigned_v<T> && v < 0) || (std::is_signed_v<T> && (v < std::int64_t(L::min()) || v > std::int64_t(L::max()))))
                throw outOfRange();
            dst = T(v);
        } else if (it->is_number_float()) {
            // Whole values written as floats (2.0) are accepted; max() + 1 is a power of two,
            // exact in a double, so the bound is exact.
            const double v = it->get<double>();
            if (!(std::isfinite(v) && v == std::floor(v) && v >= double(L::min()) && v < double(L::max()) + 1.0))
                throw outOfRange();
            dst = T(v);
        } else {
            throw IoError(file, field, "wrong type: " + it->dump());
        }
    } else {
        try {
            it->get_to(dst);
        } catch (const nlohmann::json::exception&) {
            throw IoError(file, field, "wrong type: " + it->dump());
        }
    }
}

}  // namespace warplab::io
