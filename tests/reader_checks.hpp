// What the reader tests share: EXPECT_INPUT_ERROR (the statement must throw an InputError
// whose message is one printable line holding every needle) and scratch files.
#pragma once
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <initializer_list>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/base/printable.hpp"

namespace ladder::testing_support {

// Runs f, which must throw InputError; returns its message after checking that it is one line
// of printable ASCII holding every needle.
inline std::string expect_input_error(const std::function<void()>& f,
                                      std::initializer_list<std::string> needles) {
  std::string m;
  try {
    f();
    ADD_FAILURE() << "no exception";
    return m;
  } catch (const InputError& e) {
    m = e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw something other than InputError: " << e.what();
    return m;
  } catch (...) {
    ADD_FAILURE() << "threw something other than a std::exception";
    return m;
  }
  EXPECT_FALSE(m.empty());
  for (unsigned char c : m)
    if (c < 0x20 || c > 0x7E) {
      ADD_FAILURE() << "byte " << int(c) << " in message: " << printable(m, 1000);
      break;
    }
  for (const std::string& n : needles)
    EXPECT_NE(m.find(n), std::string::npos) << "'" << n << "' not in: " << m;
  return m;
}

inline std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "/" + name;
}

inline std::string write_bytes(const std::string& name, const std::string& bytes) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

}  // namespace ladder::testing_support

#define EXPECT_INPUT_ERROR(stmt, ...)                                                     \
  [&] {                                                                                   \
    SCOPED_TRACE(#stmt);                                                                  \
    return ::ladder::testing_support::expect_input_error([&] { (void)(stmt); },           \
                                                         {__VA_ARGS__});                  \
  }()
