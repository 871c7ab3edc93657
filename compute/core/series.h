// A time series as the engine sees it: `length` samples of `dims` channels, row-major float.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace warplab::compute {

struct Series {
    std::vector<float> values;  // length * dims, sample-major: values[i*dims + c]
    std::size_t length = 0;
    std::size_t dims = 1;
    std::string name;           // for labels in views and exports; may be empty
    std::string label;          // class label (UCR --label-column), may be empty

    Series() = default;
    Series(std::vector<float> v, std::size_t d = 1, std::string n = {})
        : values(std::move(v)), length(d ? values.size() / d : 0), dims(d), name(std::move(n)) {}

    const float* sample(std::size_t i) const { return values.data() + i * dims; }
    bool empty() const { return length == 0; }
};

using SeriesSet = std::vector<Series>;

}  // namespace warplab::compute
