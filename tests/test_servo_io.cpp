#include <gtest/gtest.h>
TEST(Placeholderio, Builds) { SUCCEED(); }
