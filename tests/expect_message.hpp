// The message of the exception a call throws, for tests that compare error texts.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace frictionlab::testing {

/// e.what() of the E that f throws; a test failure (and "") when f throws nothing.
template <class E>
std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception";
  return {};
}

}  // namespace frictionlab::testing
