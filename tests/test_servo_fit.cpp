#include <gtest/gtest.h>
TEST(Placeholderfit, Builds) { SUCCEED(); }
