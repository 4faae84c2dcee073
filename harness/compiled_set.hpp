// A set of values a kernel template is compiled for (tile edges, capacities, lanes), listed
// once: the ParamSpec's choices, the "is it compiled?" check and the dispatch to the
// instantiation all come from the same list.
#pragma once
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace ladder {

template <int... Values>
struct CompiledSet {
  static constexpr int largest() {
    int m = 0;
    ((m = Values > m ? Values : m), ...);
    return m;
  }
  static bool contains(long long v) { return ((v == Values) || ...); }
  static std::vector<std::string> choices() { return {std::to_string(Values)...}; }
  static std::string text() {
    std::string s;
    ((s += (s.empty() ? "" : ", ") + std::to_string(Values)), ...);
    return s;
  }
  // Calls f(std::integral_constant<int, V>{}) for the first V (in listed order) with
  // fits(V). No such V is a harness bug: the variant's support check should have refused.
  template <class Fits, class F>
  static void first(Fits fits, F&& f, const std::string& who) {
    const bool done =
        ((fits(Values) ? (f(std::integral_constant<int, Values>{}), true) : false) || ...);
    if (!done) throw std::logic_error(who + ": no compiled value fits this point");
  }
  template <class F>
  static void exactly(long long v, F&& f, const std::string& who) {
    first([v](int c) { return c == v; }, std::forward<F>(f), who);
  }
};

}  // namespace ladder
