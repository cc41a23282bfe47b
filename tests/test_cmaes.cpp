#include <gtest/gtest.h>
TEST(PlaceholderCmaes, Builds) { SUCCEED(); }
