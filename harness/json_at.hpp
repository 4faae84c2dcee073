// Reading fields of a results file (or a hand-edited one) without throwing: j[a][b]... where
// each level is an object holding the key, else null. The readers of merged, joined and
// summarised files check the types they need of what this returns.
#pragma once
#include <initializer_list>
#include <nlohmann/json.hpp>

namespace ladder {

inline const nlohmann::json& json_at(const nlohmann::json& j, std::initializer_list<const char*> keys) {
  static const nlohmann::json none;
  const nlohmann::json* x = &j;
  for (const char* k : keys) {
    if (!x->is_object() || !x->contains(k)) return none;
    x = &(*x)[k];
  }
  return *x;
}

}  // namespace ladder
