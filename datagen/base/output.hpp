// A variant's raw output on the host: a flat typed array with a shape. Every study's output
// (distances, a matrix, sorted ids) fits this, so validation and .npy dumps stay generic.
#pragma once
#include <cstddef>
#include <cstdint>
#include <variant>
#include <vector>

namespace ladder {

struct Output {
  using Data = std::variant<std::vector<float>, std::vector<double>, std::vector<std::int32_t>,
                            std::vector<std::int64_t>>;
  Data data;
  std::vector<std::size_t> shape;  // C order; empty means 1-D of data's length

  std::size_t size() const {
    return std::visit([](const auto& v) { return v.size(); }, data);
  }
  double at(std::size_t i) const {
    return std::visit([i](const auto& v) { return static_cast<double>(v[i]); }, data);
  }
  bool is_integer() const { return data.index() >= 2; }
};

}  // namespace ladder
