// A time series as the engine sees it: `length` samples of `dims` channels, row-major float.
#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace warplab::compute {

struct Series {
    std::vector<float> values;  // length * dims, sample-major: values[i*dims + c]; empty while borrowing
    std::size_t length = 0;
    std::size_t dims = 1;
    std::string name;           // for labels in views and exports; may be empty
    std::string label;          // class label (UCR --label-column), may be empty

    Series() = default;
    Series(std::vector<float> v, std::size_t d = 1, std::string n = {})
        : values(std::move(v)), length(d ? values.size() / d : 0), dims(d), name(std::move(n)) {}

    // A series that reads its length * dims samples in place from a caller's buffer, which must
    // outlive it and its copies (copies borrow the same buffer): the Python module hands the
    // engine C-contiguous float32 arrays so, without a copy.
    static Series borrowing(const float* data, std::size_t length, std::size_t dims = 1) {
        Series s;
        s.length = length;
        s.dims = dims;
        s.borrowed_ = data;
        return s;
    }
    bool borrows() const { return borrowed_ != nullptr; }
    // Gives a borrowing series its own copy of the samples in `values`, before it is changed.
    void own() {
        if (!borrowed_) return;
        values.assign(borrowed_, borrowed_ + length * dims);
        borrowed_ = nullptr;
    }

    // What the engine reads: the borrowed buffer or `values`.
    std::span<const float> samples() const {
        return borrowed_ ? std::span<const float>(borrowed_, length * dims) : std::span<const float>(values);
    }
    const float* sample(std::size_t i) const { return samples().data() + i * dims; }
    bool empty() const { return length == 0; }

private:
    const float* borrowed_ = nullptr;
};

using SeriesSet = std::vector<Series>;

}  // namespace warplab::compute
