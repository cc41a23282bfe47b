// frictionlab/format.hpp, the one number formatter: format_exact reads back bit for bit (an
// invariant over many values), the fixed-digit forms equal printf's, non-finite values have one
// spelling, and parse_number accepts exactly the texts std::stod reads in full.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include "frictionlab/format.hpp"

namespace frictionlab {
namespace {

TEST(Format, ExactReadsBackBitForBit) {
  std::mt19937_64 gen(7);
  std::uniform_int_distribution<int> exponent(-300, 300);
  std::uniform_real_distribution<double> mantissa(1.0, 10.0);
  for (int i = 0; i < 20000; ++i) {
    const double x = (i % 2 ? -1 : 1) * mantissa(gen) * std::pow(10.0, exponent(gen));
    const std::string s = format_exact(x);
    EXPECT_EQ(std::strtod(s.c_str(), nullptr), x) << s;
  }
  EXPECT_EQ(format_exact(0.1), "0.1");
  EXPECT_EQ(format_exact(-1.0), "-1");
  EXPECT_EQ(format_exact(std::numeric_limits<double>::denorm_min()), "5e-324");
}

TEST(Format, DigitFormsArePrintfs) {
  char buf[64];
  for (double x : {1.0 / 3.0, -12345.678, 6.02214076e23, 1e-7, 0.0}) {
    std::snprintf(buf, sizeof buf, "%.6g", x);
    EXPECT_EQ(format_number(x), buf);
    std::snprintf(buf, sizeof buf, "%.10g", x);
    EXPECT_EQ(format_number(x, 10), buf);
    std::snprintf(buf, sizeof buf, "%.3f", x);
    EXPECT_EQ(format_fixed(x, 3), buf);
    std::snprintf(buf, sizeof buf, "%.2e", x);
    EXPECT_EQ(format_scientific(x, 2), buf);
    std::snprintf(buf, sizeof buf, "%.5g", x);
    EXPECT_EQ(format_display(x), buf);
  }
}

TEST(Format, RoundSignificantIsTheNumberOfItsDigits) {
  // The stored plot data (7 digits, "%.7g") and compare's ranking scores (9 digits, "%.8e") were
  // rounded through these printfs; round_significant must give the same doubles, bit for bit.
  char buf[64];
  for (double x : {1.0 / 3.0, -12345.678901234, 6.02214076e23, 1e-7, 2.5e-310, 0.0, -0.0,
                   0.123456789012345, 99999995.0}) {
    std::snprintf(buf, sizeof buf, "%.7g", x);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(round_significant(x, 7)),
              std::bit_cast<std::uint64_t>(std::strtod(buf, nullptr)))
        << x;
    std::snprintf(buf, sizeof buf, "%.8e", x);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(round_significant(x, 9)),
              std::bit_cast<std::uint64_t>(std::strtod(buf, nullptr)))
        << x;
  }
  EXPECT_EQ(round_significant(0.123456789, 3), 0.123);
  EXPECT_EQ(round_significant(-98765.4321, 2), -99000.0);
  EXPECT_TRUE(std::isnan(round_significant(std::numeric_limits<double>::quiet_NaN(), 7)));
  EXPECT_EQ(round_significant(-std::numeric_limits<double>::infinity(), 7),
            -std::numeric_limits<double>::infinity());
}

TEST(Format, NonFiniteValuesHaveOneSpelling) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const auto& f : {format_exact, +[](double x) { return format_number(x); }}) {
    EXPECT_EQ(f(nan), "nan");
    EXPECT_EQ(f(-nan), "nan");
    EXPECT_EQ(f(inf), "inf");
    EXPECT_EQ(f(-inf), "-inf");
  }
  EXPECT_EQ(format_fixed(-inf, 2), "-inf");
  EXPECT_EQ(format_scientific(nan, 2), "nan");
  EXPECT_EQ(format_display(nan), "-");
  EXPECT_EQ(format_display(inf), "-");
}

TEST(Format, ParseNumberReadsWholeFiniteNumbers) {
  EXPECT_EQ(parse_number("2.5"), 2.5);
  EXPECT_EQ(parse_number("-1e-3"), -1e-3);
  EXPECT_EQ(parse_number(" 7"), 7.0);  // leading blanks, as std::stod
  EXPECT_EQ(parse_number("+4"), 4.0);
  // out of range as std::stod has it: overflow, and underflow to 0 or to a subnormal
  for (const char* bad :
       {"", " ", "2x", "1.5 ", "nan", "inf", "-inf", "1e999", "1e-400", "5e-324", "abc"})
    EXPECT_FALSE(parse_number(bad).has_value()) << "'" << bad << "'";
  // every exact text reads back
  for (double x : {0.1, -123.456, 2.2250738585072014e-308, 1.7976931348623157e308})
    EXPECT_EQ(parse_number(format_exact(x)), x);
}

}  // namespace
}  // namespace frictionlab
