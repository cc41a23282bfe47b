// io::export_actuator_mujoco / export_actuator_bam (io/actuator_export.hpp): the MJCF fragment's
// numbers against the formulas evaluated here from the parameter file's own numbers, the notes of
// what MuJoCo cannot represent per model M1..M6 and drive, the errors, the BAM file's round trip
// through io::read_servo_params, summary.json and directories as inputs; and the physics: the
// torque law of the MuJoCo elements written (position actuator + joint damping; dcmotor with its
// controller, as MuJoCo's XML reference states it) against sim::servo_control +
// servo_motor_torque at states inside and outside the saturation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "expect_message.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/actuator_export.hpp"
#include "frictionlab/io/actuator_file.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/sim/servo.hpp"

namespace frictionlab {
namespace {

namespace fs = std::filesystem;

// The reference package's XL330 M1 fit (../shared/data/servo_xl330/reference_params/m1.json),
// with q_offset set to 0 so that M1 is exact.
constexpr double kKt = 0.3866957639281311, kR = 4.017129222290597, kArm = 0.0018141672784458866;
constexpr double kKc = 0.01283272036582759, kKv = 0.003661672282824312;

std::string m1_text(double q_offset) {
  std::ostringstream s;
  s.precision(17);
  s << "{\"kt\": " << kKt << ", \"R\": " << kR << ", \"armature\": " << kArm
    << ", \"q_offset\": " << q_offset << ", \"friction_base\": " << kKc
    << ", \"friction_viscous\": " << kKv << ", \"model\": \"m1\", \"actuator\": \"xl330\"}";
  return s.str();
}

struct TempDir {
  fs::path dir;
  explicit TempDir(const std::string& name) : dir(fs::temp_directory_path() / name) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempDir() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

io::ActuatorSource source_of(const std::string& text) {
  io::ActuatorSource s;
  s.file = "params.json";
  s.setup = io::parse_servo_params(text, s.file);
  return s;
}

/// The value of attribute `name` of the first element `<element ...>` in `xml` ("" if absent).
std::string attr(const std::string& xml, const std::string& element, const std::string& name) {
  const auto start = xml.find("<" + element + " ");
  if (start == std::string::npos) return "";
  const auto end = xml.find('>', start);
  const std::string tag = xml.substr(start, end - start);
  const auto at = tag.find(" " + name + "=\"");
  if (at == std::string::npos) return "";
  const auto v = at + name.size() + 3;
  return tag.substr(v, tag.find('"', v) - v);
}

std::vector<double> numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<double> out;
  for (double x; in >> x;) out.push_back(x);
  return out;
}

double num(const std::string& xml, const std::string& element, const std::string& name) {
  const auto v = numbers(attr(xml, element, name));
  EXPECT_EQ(v.size(), 1u) << element << " " << name;
  return v.empty() ? NAN : v[0];
}

// Relative agreement to a few units in the last place.
void expect_close(double got, double want, const char* what) {
  EXPECT_LE(std::abs(got - want), 4e-16 * std::max(std::abs(want), 1e-300))
      << what << ": " << got << " vs " << want;
}

// The XL330's duty per kp rad: 4096 counts per turn, kp / 256, PWM full scale 885
// (docs/actuators.md, "Actuator families").
const double kXl330Gain = 4096.0 / (2.0 * std::numbers::pi) / (256.0 * 885.0);

TEST(ActuatorExport, PositionFormValues) {
  io::ActuatorMujocoOptions o;
  o.joint = "elbow";
  o.kp = 400;
  const auto f = io::export_actuator_mujoco(source_of(m1_text(0)), o);
  const double vin = 7.4;  // the XL330's supply
  expect_close(num(f.xml, "joint", "armature"), kArm, "armature");
  expect_close(num(f.xml, "joint", "frictionloss"), kKc, "frictionloss");
  expect_close(num(f.xml, "joint", "damping"), kKv + kKt * kKt / kR, "damping");
  expect_close(num(f.xml, "position", "kp"), kKt / kR * vin * 400 * kXl330Gain, "kp");
  const auto range = numbers(attr(f.xml, "position", "forcerange"));
  ASSERT_EQ(range.size(), 2u);
  expect_close(range[1], kKt / kR * vin, "forcerange");
  EXPECT_EQ(range[0], -range[1]);
  EXPECT_EQ(attr(f.xml, "position", "joint"), "elbow");
  EXPECT_EQ(attr(f.xml, "position", "forcelimited"), "true");
  EXPECT_EQ(attr(f.xml, "position", "ctrlrange"), "");
  EXPECT_TRUE(f.notes.empty());
  EXPECT_NE(f.xml.find("MuJoCo represents this model exactly."), std::string::npos);

  // --vin and --ctrlrange.
  o.vin = 5.0;
  o.ctrlrange = io::parse_ctrlrange("-1.5:2");
  const auto g = io::export_actuator_mujoco(source_of(m1_text(0)), o);
  expect_close(num(g.xml, "position", "kp"), kKt / kR * 5.0 * 400 * kXl330Gain, "kp at 5 V");
  EXPECT_EQ(attr(g.xml, "position", "ctrlrange"), "-1.5 2");
}

TEST(ActuatorExport, DcmotorFormValues) {
  io::ActuatorMujocoOptions o;
  o.kp = 100;
  o.form = io::ActuatorMujocoForm::dcmotor;
  const auto f = io::export_actuator_mujoco(source_of(m1_text(0)), o);
  expect_close(num(f.xml, "joint", "damping"), kKv, "damping (the motor has the back-EMF)");
  expect_close(num(f.xml, "dcmotor", "resistance"), kR, "resistance");
  EXPECT_EQ(numbers(attr(f.xml, "dcmotor", "motorconst")), (std::vector<double>{kKt, kKt}));
  EXPECT_EQ(attr(f.xml, "dcmotor", "input"), "pos");
  const auto c = numbers(attr(f.xml, "dcmotor", "controller"));
  ASSERT_EQ(c.size(), 6u);
  expect_close(c[0], kKt / kR * 7.4 * 100 * kXl330Gain, "controller kp");
  EXPECT_EQ(c[1], 0.0);
  expect_close(c[2], kKt * kKt / kR, "controller kd");
  EXPECT_EQ(c[3], 0.0);
  EXPECT_EQ(c[4], 0.0);
  expect_close(c[5], 7.4, "Vmax");
  EXPECT_EQ(attr(f.xml, "dcmotor", "saturation"), "");  // the XL330 has no current window
  EXPECT_TRUE(f.notes.empty());
}

// A parameter set of model `m` with every key non-zero.
sim::ServoSetup every_key(ActuatorModel m, sim::ServoDrive drive, double max_current = 0) {
  sim::ServoSetup s;
  s.actuator = sim::generic_servo_actuator({drive, 12.0, 0.01, 0.9, max_current});
  s.params.model = m;
  for (auto key : sim::servo_param_keys(m, drive)) *sim::servo_param(s.params, key) = 0.02;
  s.params.kt = 0.5;
  s.params.R = 2.0;
  s.params.current_limit = drive == sim::ServoDrive::current ? 1.5 : 0.0;
  s.params.q_offset = 0.0;
  s.params.friction.vs = 2.0;
  s.params.friction.alpha = 1.5;
  return s;
}

// The first word of every note (what it is about).
std::vector<std::string> kinds(const std::vector<std::string>& notes) {
  std::vector<std::string> out;
  out.reserve(notes.size());
  for (const auto& n : notes) out.push_back(n.substr(0, n.find(' ')));
  return out;
}

TEST(ActuatorExport, UnrepresentableTermsPerModel) {
  using V = std::vector<std::string>;
  const auto pos = io::ActuatorMujocoForm::position;
  const std::vector<std::pair<ActuatorModel, V>> want{
      {ActuatorModel::M1, {}},
      {ActuatorModel::M2, {"Stribeck"}},
      {ActuatorModel::M3, {"load-dependent"}},
      {ActuatorModel::M4, {"Stribeck", "load-dependent"}},
      {ActuatorModel::M5, {"Stribeck", "load-dependent"}},
      {ActuatorModel::M6, {"Stribeck", "load-dependent", "quadratic"}},
  };
  for (const auto& [m, expected] : want) {
    const auto s = every_key(m, sim::ServoDrive::voltage);
    const auto v = io::actuator_mujoco_values(s, 100, 12);
    EXPECT_EQ(kinds(io::actuator_mujoco_notes(s, v, pos)), expected) << static_cast<int>(m);
    // The same with a q_offset: one more note, last.
    auto q = s;
    q.params.q_offset = 0.01;
    auto with_offset = expected;
    with_offset.push_back("q_offset");
    EXPECT_EQ(kinds(io::actuator_mujoco_notes(q, v, pos)), with_offset) << static_cast<int>(m);
  }
  // The size of a deviation: M3's Kl at the stall torque kt/R vin max_pwm = 0.5/2*12*0.9 = 2.7 Nm.
  const auto m3 = every_key(ActuatorModel::M3, sim::ServoDrive::voltage);
  const auto n3 = io::actuator_mujoco_notes(m3, io::actuator_mujoco_values(m3, 100, 12), pos);
  ASSERT_EQ(n3.size(), 1u);
  EXPECT_NE(n3[0].find("(Kl = 0.02)"), std::string::npos) << n3[0];
  EXPECT_NE(n3[0].find("up to 0.054 Nm at the stall torque 2.7 Nm"), std::string::npos) << n3[0];
  // A zero coefficient is represented exactly: M2 with Kcs = 0 has no note.
  auto m2 = every_key(ActuatorModel::M2, sim::ServoDrive::voltage);
  m2.params.friction.Kcs = 0;
  EXPECT_TRUE(io::actuator_mujoco_notes(m2, io::actuator_mujoco_values(m2, 100, 12), pos).empty());
}

TEST(ActuatorExport, CurrentWindowsPerDriveAndForm) {
  const auto pos = io::ActuatorMujocoForm::position, dc = io::ActuatorMujocoForm::dcmotor;
  auto notes = [](const sim::ServoSetup& s, io::ActuatorMujocoForm f) {
    return kinds(io::actuator_mujoco_notes(s, io::actuator_mujoco_values(s, 100, 12), f));
  };
  const auto limited = every_key(ActuatorModel::M1, sim::ServoDrive::voltage, 1.2);
  EXPECT_EQ(notes(limited, pos), std::vector<std::string>{"the"});
  EXPECT_NE(
      io::actuator_mujoco_notes(limited, io::actuator_mujoco_values(limited, 100, 12), pos)[0].find(
          "current-limit window"),
      std::string::npos);
  // dcmotor: the window is its saturation; the order of the two clamps matters above
  // (vin max_pwm + R max_current)/kt = (10.8 + 2.4)/0.5 = 26.4 rad/s.
  const auto dn =
      io::actuator_mujoco_notes(limited, io::actuator_mujoco_values(limited, 100, 12), dc);
  ASSERT_EQ(dn.size(), 1u);
  EXPECT_NE(dn[0].find("26.4 rad/s"), std::string::npos) << dn[0];
  const auto current = every_key(ActuatorModel::M1, sim::ServoDrive::current);
  const auto cn =
      io::actuator_mujoco_notes(current, io::actuator_mujoco_values(current, 100, 12), pos);
  ASSERT_EQ(cn.size(), 1u);
  // (vin - R current_limit)/kt = (12 - 3)/0.5 = 18 rad/s.
  EXPECT_NE(cn[0].find("supply-voltage window"), std::string::npos) << cn[0];
  EXPECT_NE(cn[0].find("18 rad/s"), std::string::npos) << cn[0];
  EXPECT_TRUE(notes(current, dc).empty());
}

TEST(ActuatorExport, FirmwareLawBeyondPIsStated) {
  // a PD law with a deadband and a control period (ACTUATOR.json's "control"): three notes
  auto s = every_key(ActuatorModel::M1, sim::ServoDrive::voltage);
  s.params.q_offset = 0;
  auto& c = s.actuator.constants;
  c.law = sim::ServoLaw::pd;
  c.kd_gain = 0.01;
  c.deadband = 0.0015;
  c.period = 0.002;
  const auto n = io::actuator_mujoco_notes(s, io::actuator_mujoco_values(s, 100, 12),
                                           io::ActuatorMujocoForm::position);
  ASSERT_EQ(n.size(), 3u);
  EXPECT_NE(n[0].find("derivative terms (law 'pd', kd_gain = 0.01 s)"), std::string::npos) << n[0];
  EXPECT_NE(n[1].find("deadband |e| < 0.0015 rad"), std::string::npos) << n[1];
  EXPECT_NE(n[2].find("control period 0.002 s"), std::string::npos) << n[2];
}

TEST(ActuatorExport, NotesAreInTheComment) {
  io::ActuatorMujocoOptions o;
  o.kp = 100;
  const auto f = io::export_actuator_mujoco(source_of(m1_text(0.03)), o);
  ASSERT_EQ(f.notes.size(), 1u);
  EXPECT_NE(f.xml.find("Not represented exactly:\n       - " + f.notes[0] + "\n"),
            std::string::npos)
      << f.xml;
  // One comment, first, and no "--" inside it.
  ASSERT_EQ(f.xml.rfind("<!--", 0), 0u);
  const auto end = f.xml.find("-->");
  EXPECT_EQ(f.xml.substr(4, end - 4).find("--"), std::string::npos);
}

TEST(ActuatorExport, Errors) {
  const auto s = source_of(m1_text(0));
  io::ActuatorMujocoOptions o;
  const std::string no_kp =
      testing::message_of<std::invalid_argument>([&] { (void)io::export_actuator_mujoco(s, o); });
  EXPECT_EQ(no_kp.rfind("--kp is required", 0), 0u) << no_kp;
  o.kp = 0;
  EXPECT_THROW((void)io::export_actuator_mujoco(s, o), std::invalid_argument);
  o.kp = 100;
  o.vin = -1;
  EXPECT_THROW((void)io::export_actuator_mujoco(s, o), std::invalid_argument);
  o.vin.reset();
  o.joint = "a\"b";
  EXPECT_THROW((void)io::export_actuator_mujoco(s, o), std::invalid_argument);
  for (const char* bad : {"1", "2:1", "a:b", "1:", ":1", "0:0"})
    EXPECT_THROW((void)io::parse_ctrlrange(bad), std::invalid_argument) << bad;
  // A generic actuator without "vin" needs --vin.
  const auto generic = source_of(
      R"({"kt": 1, "R": 2, "armature": 0.01, "q_offset": 0, "friction_base": 0.1,
          "friction_viscous": 0.01, "model": "m1", "actuator": "generic", "error_gain": 0.1})");
  o.joint = "j";
  const std::string no_vin = testing::message_of<std::invalid_argument>(
      [&] { (void)io::export_actuator_mujoco(generic, o); });
  EXPECT_EQ(no_vin.rfind("--vin is required", 0), 0u) << no_vin;
  o.vin = 6;
  EXPECT_NO_THROW((void)io::export_actuator_mujoco(generic, o));
}

// What BAM's parameter file cannot carry (it names the actuator and has the identified
// parameters; BAM's families are P loops without deadband or period): one note per element.
TEST(ActuatorExport, BamNotesStateWhatBamCannotRepresent) {
  const std::string params = R"({"kt": 0.9, "R": 3, "armature": 0.006, "q_offset": 0.02,
      "friction_base": 0.04, "friction_viscous": 0.03, "model": "m1", "actuator": )";
  // A made-up servo in an ACTUATOR.json (embedded): PD law, 3-count deadband, 2 ms period.
  const std::string described = params + R"("audit-servo", "actuator_description": {
      "format": "frictionlab-actuator", "version": 1, "name": "audit-servo", "drive": "voltage",
      "supply_voltage": {"value": 9, "unit": "V"},
      "motor": {"torque_constant": {"range": [0.1, 3], "unit": "Nm/A"},
                "resistance": {"value": 4, "range": [0.5, 20], "unit": "ohm"},
                "armature": {"range": [0.0001, 0.05], "unit": "kg m^2"}},
      "encoder": {"counts_per_turn": 4096},
      "control": {"law": "pd", "error_gain": {"value": 0.08, "unit": "1/rad"},
                  "max_pwm": {"value": 0.9, "unit": "-"}, "kd_gain": {"value": 0.01, "unit": "s"},
                  "deadband": {"value": 3, "unit": "counts"}, "period": {"value": 2, "unit": "ms"}}}})";
  const auto n = io::export_actuator_bam(source_of(described)).notes;
  ASSERT_EQ(n.size(), 4u);
  EXPECT_EQ(n[0].rfind("actuator 'audit-servo' described by an ACTUATOR.json", 0), 0u) << n[0];
  for (const char* part : {"does not read \"actuator_description\"", "error_gain = 0.08 1/rad",
                           "max_pwm = 0.9", "vin = 9 V", "BAM has no actuator of this name"})
    EXPECT_NE(n[0].find(part), std::string::npos) << part << " in " << n[0];
  EXPECT_NE(n[1].find("derivative term (law 'pd', kd_gain = 0.01 s)"), std::string::npos) << n[1];
  // 3 counts of 4096 per turn, in rad, computed here
  EXPECT_NE(n[2].find("deadband |e| < " + format_exact(3 * 2 * std::numbers::pi / 4096) +
                      " rad (3 encoder counts)"),
            std::string::npos)
      << n[2];
  EXPECT_NE(n[3].find("control period 0.002 s"), std::string::npos) << n[3];

  // Built-in descriptions: BAM's sts3215 has no deadband; sts3215-12v is not a BAM name.
  const auto sts = io::export_actuator_bam(source_of(params + "\"sts3215\"}")).notes;
  ASSERT_EQ(sts.size(), 1u);
  EXPECT_NE(sts[0].find("deadband |e| < " + format_exact(2 * std::numbers::pi / 4096) +
                        " rad (1 encoder count)"),
            std::string::npos)
      << sts[0];
  const auto v12 = io::export_actuator_bam(source_of(params + "\"sts3215-12v\"}")).notes;
  ASSERT_EQ(v12.size(), 2u);
  EXPECT_EQ(v12[0].rfind("actuator 'sts3215-12v': frictionlab's built-in description; BAM has no "
                         "actuator of this name",
                         0),
            0u)
      << v12[0];
  EXPECT_NE(v12[0].find("error_gain = 0.16489 1/rad"), std::string::npos) << v12[0];
  EXPECT_NE(v12[1].find("deadband"), std::string::npos) << v12[1];

  // An ACTUATOR.json that takes a BAM family's name: BAM uses its own family instead.
  const std::string xl = std::string(io::builtin_actuator_text("xl330"));
  const auto own = io::export_actuator_bam(
                       source_of(params + "\"xl330\", \"actuator_description\": " + xl + "}"))
                       .notes;
  ASSERT_EQ(own.size(), 1u);
  EXPECT_NE(own[0].find("BAM uses its own family 'xl330' instead"), std::string::npos) << own[0];
}

TEST(ActuatorExport, BamFileRoundTrips) {
  const TempDir t("frictionlab_test_actuator_export");
  // Every model, both drives: write, read back, same values.
  for (int mi = 0; mi < 6; ++mi)
    for (auto drive : {sim::ServoDrive::voltage, sim::ServoDrive::current}) {
      auto setup = every_key(static_cast<ActuatorModel>(mi), drive);
      setup.actuator.constants.vin = 12;
      io::ActuatorSource s;
      s.file = "x.json";
      s.setup = setup;
      const auto r = io::export_actuator_bam(s);
      EXPECT_TRUE(r.warnings.empty());
      ASSERT_EQ(r.notes.size(), 1u);  // generic: BAM cannot read its constants
      EXPECT_EQ(r.notes[0].rfind("actuator 'generic': BAM has no such actuator", 0), 0u)
          << r.notes[0];
      const auto back = io::read_actuator_source(t.write("m.json", r.text)).setup;
      EXPECT_EQ(back.params.model, setup.params.model);
      EXPECT_EQ(back.actuator.constants.drive, drive);
      EXPECT_EQ(back.actuator.constants.error_gain, setup.actuator.constants.error_gain);
      EXPECT_EQ(back.actuator.constants.max_pwm, setup.actuator.constants.max_pwm);
      for (auto key : sim::servo_param_keys(setup.params.model, drive))
        EXPECT_EQ(sim::servo_param(std::as_const(back.params), key),
                  sim::servo_param(std::as_const(setup.params), key))
            << key;
    }
  // A family BAM knows: no warning, the text is BAM's file again.
  const std::string m1 = t.write("m1.json", m1_text(0.03));
  const auto r = io::export_actuator_bam(io::read_actuator_source(m1));
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(io::parse_servo_params(r.text, "b").params.friction.Kc, kKc);

  // summary.json and its directory: the recommended model's file beside it.
  t.write("summary.json",
          R"({"actuator": "xl330", "models": [{"model": "m1", "params_file": "m1.json"}],
              "recommended": "m1", "reason": "only one"})");
  const auto via = io::read_actuator_source(t.dir.string());
  EXPECT_EQ(via.file, (t.dir / "m1.json").string());
  EXPECT_EQ(via.named_by, (t.dir / "summary.json").string());
  EXPECT_EQ(via.setup.params.friction.Kv, kKv);
  EXPECT_TRUE(io::is_actuator_source(t.dir.string()));
  EXPECT_TRUE(io::is_actuator_source(m1));
  EXPECT_TRUE(io::is_actuator_source((t.dir / "summary.json").string()));
  EXPECT_FALSE(
      io::is_actuator_source(t.write("model.json", R"({"model": "coulomb", "params": {}})")));
  EXPECT_FALSE(io::is_actuator_source((t.dir / "missing.json").string()));

  t.write("summary.json",
          R"({"models": [{"model": "m1", "params_file": "m1.json"}], "recommended": "m4"})");
  const std::string unlisted = testing::message_of<io::InputError>(
      [&] { (void)io::read_actuator_source((t.dir / "summary.json").string()); });
  EXPECT_NE(unlisted.find("key 'recommended'"), std::string::npos) << unlisted;
  const TempDir empty("frictionlab_test_actuator_export_empty");
  EXPECT_THROW((void)io::read_actuator_source(empty.dir.string()), io::InputError);
}

// ---- physics: MuJoCo's torque laws with the exported numbers vs the servo's ----

// The position actuator plus the back-EMF part of the joint damping (MuJoCo: force
// kp (ctrl - q) clamped to forcerange; joint damping force -damping qd, of which Kv is friction).
double position_torque(const std::string& xml, double kv, double target, double q, double qd) {
  const double kp = num(xml, "position", "kp");
  const double limit = numbers(attr(xml, "position", "forcerange")).at(1);
  const double back_emf = num(xml, "joint", "damping") - kv;
  return std::clamp(kp * (target - q), -limit, limit) - back_emf * qd;
}

// MuJoCo's dcmotor with input "pos" (XML reference, actuator/dcmotor: controller, saturation):
// tau_c = kp e + kd (0 - qd); v = clamp((R/K) tau_c + K qd, +-Vmax); torque K (v - K qd)/R,
// clamped to +-K Isat.
double dcmotor_torque(const std::string& xml, double target, double q, double qd) {
  const double R = num(xml, "dcmotor", "resistance");
  const auto kk = numbers(attr(xml, "dcmotor", "motorconst"));
  const double K = std::sqrt(kk.at(0) * kk.at(1));
  const auto c = numbers(attr(xml, "dcmotor", "controller"));
  const double tau_c = c.at(0) * (target - q) - c.at(2) * qd;
  const double v = std::clamp(R / K * tau_c + K * qd, -c.at(5), c.at(5));
  double tau = K * (v - K * qd) / R;
  const auto sat = numbers(attr(xml, "dcmotor", "saturation"));
  if (!sat.empty()) tau = std::clamp(tau, -K * sat.at(1), K * sat.at(1));
  return tau;
}

double servo_torque(const sim::ServoSetup& s, double kp, double vin, double target, double q,
                    double qd) {
  const double u = sim::servo_control(s.actuator.constants, s.params, kp, vin, target, q, qd);
  return sim::servo_motor_torque(s.actuator.constants, s.params, u, true, qd);
}

struct State {
  double target, q, qd;
};

TEST(ActuatorExport, MujocoTorqueLawsReproduceTheServo) {
  // XL330 M1 at kp 800, 7.4 V: the duty kp g e saturates (|duty| = 1) from |e| = 0.43 rad.
  const auto s = source_of(m1_text(0));
  const double kp = 800, vin = 7.4;
  io::ActuatorMujocoOptions o;
  o.kp = kp;
  const std::string pos = io::export_actuator_mujoco(s, o).xml;
  o.form = io::ActuatorMujocoForm::dcmotor;
  const std::string dc = io::export_actuator_mujoco(s, o).xml;
  const std::vector<State> unsaturated{
      {0.1, 0.0, 0.0}, {0.2, 0.05, 1.5}, {-0.3, 0.0, -2.0}, {0.0, 0.25, 4.0}, {1.0, 0.9, -0.7}};
  const std::vector<State> saturated{{1.0, 0.0, 0.0}, {-2.0, 0.5, 3.0}, {3.0, -1.0, -6.0}};
  for (const auto& states : {unsaturated, saturated})
    for (const State& x : states) {
      const double want = servo_torque(s.setup, kp, vin, x.target, x.q, x.qd);
      const double tol = 1e-14 * (std::abs(want) + kKt * kKt / kR * std::abs(x.qd) + 1e-3);
      EXPECT_NEAR(position_torque(pos, kKv, x.target, x.q, x.qd), want, tol)
          << "position form at e = " << x.target - x.q << ", qd = " << x.qd;
      EXPECT_NEAR(dcmotor_torque(dc, x.target, x.q, x.qd), want, tol)
          << "dcmotor form at e = " << x.target - x.q << ", qd = " << x.qd;
    }
  // The saturated states do saturate (the test would not see a wrong clamp otherwise).
  for (const State& x : saturated) EXPECT_GT(std::abs(kp * kXl330Gain * (x.target - x.q)), 1.0);

  // A current drive: the dcmotor form is exact everywhere (voltage window, then the current
  // limit); the position form inside both windows.
  auto cur = every_key(ActuatorModel::M1, sim::ServoDrive::current);
  io::ActuatorSource cs;
  cs.file = "c.json";
  cs.setup = cur;
  io::ActuatorMujocoOptions co;
  co.kp = 100;
  co.vin = 12;
  const std::string cpos = io::export_actuator_mujoco(cs, co).xml;
  co.form = io::ActuatorMujocoForm::dcmotor;
  const std::string cdc = io::export_actuator_mujoco(cs, co).xml;
  const double kv = cur.params.friction.Kv;
  for (const State& x : std::vector<State>{{0.5, 0.0, 0.0},
                                           {0.2, -0.4, 3.0},
                                           {3.0, 0.0, 0.0},
                                           {-2.0, 0.0, 5.0},
                                           {1.0, 0.0, 30.0},
                                           {-1.0, 0.0, -40.0}}) {
    const double want = servo_torque(cur, 100, 12, x.target, x.q, x.qd);
    EXPECT_NEAR(dcmotor_torque(cdc, x.target, x.q, x.qd), want, 1e-14 * (std::abs(want) + 1))
        << "current drive, dcmotor form at e = " << x.target - x.q << ", qd = " << x.qd;
    const double i = 100 * cur.actuator.constants.error_gain * (x.target - x.q);
    const bool inside = std::abs(i) <= cur.params.current_limit &&
                        std::abs(cur.params.R * i + cur.params.kt * x.qd) <= 12;
    if (inside) {
      EXPECT_NEAR(position_torque(cpos, kv, x.target, x.q, x.qd), want,
                  1e-14 * (std::abs(want) + 1))
          << "current drive, position form at e = " << x.target - x.q << ", qd = " << x.qd;
    }
  }

  // A voltage drive with a current-limit window: the dcmotor form where the windows overlap.
  auto lim = every_key(ActuatorModel::M1, sim::ServoDrive::voltage, 1.2);
  io::ActuatorSource ls;
  ls.file = "l.json";
  ls.setup = lim;
  io::ActuatorMujocoOptions lo;
  lo.kp = 100;
  lo.form = io::ActuatorMujocoForm::dcmotor;
  const std::string ldc = io::export_actuator_mujoco(ls, lo).xml;
  for (const State& x :
       std::vector<State>{{0.5, 0.0, 0.0}, {2.0, 0.0, 3.0}, {-3.0, 0.0, 10.0}, {0.1, 0.0, -20.0}}) {
    const double want = servo_torque(lim, 100, 12, x.target, x.q, x.qd);
    EXPECT_NEAR(dcmotor_torque(ldc, x.target, x.q, x.qd), want, 1e-14 * (std::abs(want) + 1))
        << "voltage drive with max_current, dcmotor form at e = " << x.target - x.q
        << ", qd = " << x.qd;
  }
}

}  // namespace
}  // namespace frictionlab
