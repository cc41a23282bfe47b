#include <gtest/gtest.h>
TEST(Placeholdersim, Builds) { SUCCEED(); }
