// The message of the exception a call throws, for tests that compare error texts.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

namespace frictionlab::testing {

/// e.what() of the E that f throws; std::nullopt when f returns. Any other exception propagates
/// (and fails the test).
template <class E>
std::optional<std::string> message_if_thrown(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return std::nullopt;
}

/// e.what() of the E that f throws; a test failure (and "") when f throws nothing.
template <class E>
std::string message_of(const std::function<void()>& f) {
  const auto m = message_if_thrown<E>(f);
  if (!m) ADD_FAILURE() << "no exception";
  return m.value_or("");
}

/// e.what() of the E that f throws, or "no error" when f returns: for tests that check both the
/// refusals of some inputs and the acceptance of others.
template <class E>
std::string message_or_no_error(const std::function<void()>& f) {
  return message_if_thrown<E>(f).value_or("no error");
}

}  // namespace frictionlab::testing
