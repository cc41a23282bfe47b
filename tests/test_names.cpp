// frictionlab/names.hpp, the one table of an enum's names: name_of and its fallback, parse_name
// (exact match, nullopt otherwise), known_names in table order, names_every; and the tables of
// the library, whose names round-trip through their parse functions and keep their spellings.
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "frictionlab/estimator/torque_estimator.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/models/fields.hpp"
#include "frictionlab/models/stribeck/info.hpp"
#include "frictionlab/names.hpp"
#include "frictionlab/sim/model_run.hpp"
#include "frictionlab/sim/servo.hpp"
#include "frictionlab/sim/systems.hpp"
#include "frictionlab/workflows/batch_simd.hpp"
#include "frictionlab/workflows/joint.hpp"
#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab {
namespace {

enum class Colour { red, green, blue };
constexpr std::array<Named<Colour>, 3> kColours{
    {{Colour::red, "red"}, {Colour::green, "green"}, {Colour::blue, "blue"}}};
constexpr std::array<Named<Colour>, 2> kWarmColours{
    {{Colour::red, "red"}, {Colour::green, "green"}}};

// Usable at compile time, as the tables beside the enums use them.
static_assert(name_of(kColours, Colour::green) == "green");
static_assert(parse_name(kColours, "blue") == Colour::blue);
static_assert(names_every(kColours, Colour::blue));
static_assert(!names_every(kWarmColours, Colour::blue));  // blue has no name
static_assert(!names_every(kColours, Colour::green));     // an enumerator beyond `last`

TEST(Names, NameOfAndFallback) {
  EXPECT_EQ(name_of(kColours, Colour::red), "red");
  EXPECT_EQ(name_of(kColours, Colour::blue, "?"), "blue");
  EXPECT_EQ(name_of(kWarmColours, Colour::blue), "");
  EXPECT_EQ(name_of(kWarmColours, Colour::blue, "?"), "?");
}

TEST(Names, ParseIsExact) {
  EXPECT_EQ(parse_name(kColours, "green"), Colour::green);
  EXPECT_EQ(parse_name(kColours, "Green"), std::nullopt);
  EXPECT_EQ(parse_name(kColours, "gree"), std::nullopt);
  EXPECT_EQ(parse_name(kColours, ""), std::nullopt);
  EXPECT_EQ(parse_name(kWarmColours, "blue"), std::nullopt);
}

TEST(Names, KnownNamesInTableOrder) {
  EXPECT_EQ(known_names(kColours), "red, green, blue");
  EXPECT_EQ(known_names(kColours, " | "), "red | green | blue");
  EXPECT_EQ(known_names(kColours, ", ", " or "), "red, green or blue");
  EXPECT_EQ(known_names(kWarmColours, ", ", " or "), "red or green");
  EXPECT_EQ(known_names(std::array<Named<Colour>, 1>{{{Colour::red, "red"}}}, ", ", " or "), "red");
  EXPECT_EQ(known_names(std::array<Named<Colour>, 0>{}), "");
}

// Every name of a table reads back to its enumerator through the library's parse function.
template <class E, std::size_t N, class Parse>
void expect_round_trip(const std::array<Named<E>, N>& table, Parse parse) {
  for (const Named<E>& n : table) EXPECT_EQ(parse(n.name), n.value) << n.name;
}

TEST(Names, LibraryTablesRoundTrip) {
  expect_round_trip(identify::kFitMethodNames,
                    [](std::string_view s) { return identify::parse_method(s); });
  expect_round_trip(kHoldNames, [](std::string_view s) { return identify::parse_hold(s); });
  expect_round_trip(sim::kSystemIntegratorNames,
                    [](std::string_view s) { return *sim::parse_integrator(s); });
  expect_round_trip(workflows::kJointMethodNames,
                    [](std::string_view s) { return workflows::parse_joint_method(s); });
  for (const Method m : {Method::exact, Method::implicit_euler, Method::forward_euler, Method::rk4})
    EXPECT_EQ(sim::parse_method(sim::method_name(m)), m);
}

TEST(Names, LibrarySpellings) {
  EXPECT_STREQ(estimator::param_name(estimator::ParamError::ok), "ok");
  EXPECT_STREQ(estimator::param_name(estimator::ParamError::Fs_neg), "Fs_neg");
  EXPECT_STREQ(estimator::param_name(static_cast<estimator::ParamError>(99)), "unknown");
  EXPECT_EQ(unit_text(Unit::damping), "N s/m");
  EXPECT_EQ(unit_text(Unit::damping, true), "Nm s/rad");
  EXPECT_EQ(unit_text(Unit::other, true), "see docs/models.md");
  EXPECT_STREQ(hold_name(Hold::zoh), "zoh");
  EXPECT_EQ(identify::method_name(identify::FitMethod::two_stage), "two-stage");
  EXPECT_STREQ(sim::method_name(Method::forward_euler), "euler");
  EXPECT_EQ(sim::parse_method("forward_euler"), std::nullopt);
  EXPECT_STREQ(sim::integrator_name(sim::SystemIntegrator::cvode), "cvode");
  EXPECT_EQ(sim::parse_integrator("CVODE"), std::nullopt);
  EXPECT_EQ(workflows::grade_name(workflows::Grade::doubtful), "doubtful");
  EXPECT_EQ(workflows::batch_simd_name(workflows::BatchSimd::avx512), "avx512");
  EXPECT_STREQ(static_kind_name(StaticKind::coulomb_viscous), "coulomb-viscous");
  EXPECT_EQ(name_of(sim::kServoLawNames, sim::ServoLaw::pid), "pid");
}

TEST(Names, MessagesListTheTable) {
  try {
    identify::parse_method("newton");
    FAIL() << "no throw";
  } catch (const identify::FitError& e) {
    EXPECT_STREQ(e.what(), "unknown method 'newton'; known: lsq, grid, two-stage");
  }
  try {
    identify::parse_hold("foh");
    FAIL() << "no throw";
  } catch (const identify::FitError& e) {
    EXPECT_STREQ(e.what(), "unknown hold 'foh'; known: linear, zoh");
  }
  try {
    workflows::parse_joint_method("lsq");
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "the joint method must be sr3, idim or oe, got 'lsq'");
  }
}

}  // namespace
}  // namespace frictionlab
