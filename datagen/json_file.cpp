#include "json_file.hpp"

#include <new>
#include <set>
#include <vector>

#include "base/errors.hpp"
#include "data_file.hpp"
#include "numbers.hpp"

namespace ladder {
namespace {

using json = nlohmann::json;

std::string name_of(const std::string& what) { return printable(what, 400); }

// nlohmann's message without its "[json.exception.parse_error.101] " prefix, on one line.
std::string json_message(const json::exception& e) {
  std::string m = e.what();
  if (m.rfind("[json.exception.", 0) == 0) {
    const std::size_t end = m.find("] ");
    if (end != std::string::npos) m.erase(0, end + 2);
  }
  return printable(m, 300);
}

// Fails if arrays/objects nest deeper than max_depth; brackets inside strings do not count.
void check_depth(const std::string& text, const std::string& what, std::size_t max_depth) {
  std::size_t depth = 0, line = 1, column = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
    }
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth)
        throw InputError(name_of(what) + " nests deeper than " + std::to_string(max_depth) +
                         " levels of arrays and objects (line " + std::to_string(line) +
                         ", column " + std::to_string(column) + ")");
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

// Tracks where the parser is (object keys seen so far, array indices) to refuse a key given
// twice in one object and say which object.
class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(const std::string& what) : what_(what) {}

  bool operator()(int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: frames_.push_back({true, {}, {}, 0}); break;
      case json::parse_event_t::array_start: frames_.push_back({false, {}, {}, 0}); break;
      case json::parse_event_t::key: {
        Frame& f = frames_.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second) {
          const std::string at = path();
          throw InputError(name_of(what_) + ": duplicate key '" + printable(f.key) + "'" +
                           (at.empty() ? "" : " in the object at '" + printable(at, 120) + "'"));
        }
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        element_done();
        break;
      case json::parse_event_t::value: element_done(); break;
    }
    return true;
  }

 private:
  struct Frame {
    bool object;
    std::set<std::string> keys;
    std::string key;        // object: the key whose value is being read
    std::size_t index = 0;  // array: the index of the element being read
  };

  void element_done() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  }

  // Path to the innermost object, e.g. "axes.points[2]".
  std::string path() const {
    std::string p;
    for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
      if (frames_[i].object) p += (p.empty() ? "" : ".") + frames_[i].key;
      else p += "[" + std::to_string(frames_[i].index) + "]";
    }
    return p;
  }

  const std::string& what_;
  std::vector<Frame> frames_;
};

}  // namespace

json parse_json_text(const std::string& text, const std::string& what, std::size_t max_depth) {
  check_text_start(text, name_of(what));
  check_depth(text, what, max_depth);
  try {
    return json::parse(text, DuplicateKeyCheck(what));
  } catch (const json::exception& e) {
    throw InputError(name_of(what) + " is not valid JSON: " + json_message(e));
  } catch (const std::bad_alloc&) {
    throw InputError(name_of(what) + " is too large to parse in the memory available");
  }
}

json read_json_file(const std::string& path, const std::string& what, std::size_t max_depth,
                    std::size_t max_bytes) {
  const std::string name = name_of(what);
  const std::string text = read_whole_file(path, name, "a file", [&](std::uintmax_t size) {
    if (size > max_bytes)
      throw InputError(name + " is " + std::to_string(size) + " bytes, more than the limit of " +
                       std::to_string(max_bytes));
  });
  return parse_json_text(text, what, max_depth);
}

}  // namespace ladder
