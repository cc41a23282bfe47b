// Tests of the BAM servo files (io/servo_json.hpp) and the log helpers (data/servo_log.hpp):
// reading, schema errors naming file, entry and key, resampling of a raw log against the
// reference package's own processed output, selection, parameter files (round trip, errors).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numbers>

#include "expect_message.hpp"
#include "frictionlab/data/servo_log.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/sim/servo_params.hpp"

namespace frictionlab {
namespace {

const std::string kShared = std::string(FRICTIONLAB_SOURCE_DIR) + "/../shared/data/servo_xl330";

std::string entry(double t, double pos, double goal, const std::string& extra = "") {
  return "{\"position\": " + std::to_string(pos) + ", \"goal_position\": " + std::to_string(goal) +
         ", \"timestamp\": " + std::to_string(t) + ", \"torque_enable\": true" + extra + "}";
}

std::string log_text(const std::string& entries, const std::string& header = "") {
  return "{\"mass\": 0.49, \"length\": 0.1, \"kp\": 100, \"vin\": 7.4, \"motor\": \"xl330\", "
         "\"trajectory\": \"sin_sin\", \"dt\": 0.005" +
         header + ", \"entries\": [" + entries + "]}";
}

std::string replace(std::string s, const std::string& a, const std::string& b) {
  const auto at = s.find(a);
  EXPECT_NE(at, std::string::npos) << a;
  return s.replace(at, a.size(), b);
}

/// The message of the InputError reading `text` as a log throws, or "no error".
std::string error_of(const std::string& text) {
  return testing::message_or_no_error<io::InputError>(
      [&] { io::parse_servo_log(text, "log.json"); });
}

TEST(ServoLogRead, ReadsAProcessedLog) {
  const auto r =
      io::parse_servo_log(log_text(entry(0, 0.1, 0.2, ", \"speed\": 0.5, \"current\": 3") + "," +
                                       entry(0.005, 0.11, 0.25, ", \"speed\": 0.6, \"current\": 4"),
                                   ", \"comment\": \"x\""),
                          "log.json");
  const auto& l = r.log;
  EXPECT_EQ(l.size(), 2u);
  EXPECT_EQ(l.kp, 100);
  EXPECT_EQ(*l.vin, 7.4);
  EXPECT_EQ(l.dt, 0.005);
  EXPECT_EQ(l.arm_mass, 0.0);
  EXPECT_EQ(l.trajectory, "sin_sin");
  EXPECT_EQ(l.goal_position[1], 0.25);
  EXPECT_EQ(l.speed[1], 0.6);
  EXPECT_TRUE(l.load.empty());
  EXPECT_EQ(l.torque_enable[0], 1);
  ASSERT_EQ(r.ignored_keys.size(), 2u);
  EXPECT_EQ(r.ignored_keys[0], "comment");
  EXPECT_EQ(r.ignored_keys[1], "entries[].current (its unit is not known: give \"current_unit\")");
  EXPECT_EQ(l.current[1], 4.0);  // kept, but unused without a unit
  EXPECT_EQ(l.current_to_amps(), 0.0);
}

TEST(ServoLogRead, ErrorsNameTheFileTheEntryAndTheKey) {
  const std::string ok = entry(0, 0, 0) + ",";
  EXPECT_EQ(error_of(log_text(ok + entry(0.005, 0, 0) +
                              ",{\"position\": 1, \"timestamp\": 0.01, "
                              "\"torque_enable\": true}")),
            "log.json: entry 2: key 'goal_position': missing");
  EXPECT_EQ(error_of(log_text(ok + "{\"position\": \"a\", \"goal_position\": 0, \"timestamp\": "
                                   "0.005, \"torque_enable\": true}")),
            "log.json: entry 1: key 'position': expected a number, got string");
  EXPECT_EQ(error_of(log_text(ok + "{\"position\": 0, \"goal_position\": 0, \"timestamp\": "
                                   "0.005, \"torque_enable\": 2}")),
            "log.json: entry 1: key 'torque_enable': expected true, false, 0 or 1, got 2");
  EXPECT_EQ(error_of(log_text(entry(0, 0, 0, ", \"speed\": 1") + "," + entry(0.005, 0, 0))),
            "log.json: entry 1: key 'speed': missing (entry 0 has it: a channel is in every "
            "entry or in none)");
  EXPECT_EQ(error_of(log_text(entry(0.01, 0, 0) + "," + entry(0.005, 0, 0))),
            "log.json: entry 1: key 'timestamp': decreases (0.01 then 0.005)");
  EXPECT_EQ(error_of("{\"length\": 0.1, \"kp\": 1, \"entries\": []}"),
            "log.json: key 'mass': missing (a number is required)");
  EXPECT_EQ(error_of("{\"mass\": 1, \"length\": 0.1, \"kp\": 1, \"entries\": {}}"),
            "log.json: key 'entries': expected an array, got object");
  EXPECT_EQ(error_of(log_text(ok + entry(0.005, 0, 0), ", \"arm_mass\": -1")),
            "log.json: key 'arm_mass': -1 kg is outside the plausible range [0, 10000] kg");
  EXPECT_EQ(error_of("{\"mass\": 1, \"length\": 0.1, \"kp\": 1, \"dt\": 0, \"entries\": []}"),
            "log.json: key 'dt': must be > 0, got 0");
  // absurd magnitudes (sim/servo_limits.hpp): the key, the entry and the plausible range
  EXPECT_EQ(error_of(log_text(ok + entry(0.005, 1e300, 0))),
            "log.json: entry 1: key 'position': |1e+300| is beyond the limit 1e+15 of any number "
            "(SI units)");
  EXPECT_EQ(error_of(log_text(ok + entry(0.005, 0, 1e7))),
            "log.json: entry 1: key 'goal_position': 1e+07 rad is outside the plausible range "
            "[-1e+06, 1e+06] rad");
  EXPECT_EQ(error_of(replace(log_text(ok + entry(0.005, 0, 0)), "\"kp\": 100", "\"kp\": 1e300")),
            "log.json: key 'kp': |1e+300| is beyond the limit 1e+15 of any number (SI units)");
  EXPECT_EQ(error_of(replace(log_text(ok + entry(0.005, 0, 0)), "\"vin\": 7.4", "\"vin\": 1e6")),
            "log.json: key 'vin': 1e+06 V is outside the plausible range [0.1, 1000] V");
  EXPECT_EQ(error_of(replace(log_text(ok + entry(0.005, 0, 0)), "\"mass\": 0.49", "\"mass\": 5e4")),
            "log.json: key 'mass': 50000 kg is outside the plausible range [0, 10000] kg");
  EXPECT_EQ(error_of("{\"mass\": 1,\n \"length\": }"),
            "log.json:2:12: JSON syntax error: syntax error while parsing value - unexpected "
            "'}'; expected '[', '{', or a literal");
}

TEST(ServoLogResample, LinearInterpolationAndTheTorqueThreshold) {
  data::ServoLog raw;
  raw.mass = 1;
  raw.length = 0.1;
  raw.kp = 1;
  raw.timestamp = {0.001, 0.004, 0.012};
  raw.position = {1.0, 4.0, 12.0};
  raw.goal_position = {0.0, 3.0, 3.0};
  raw.torque_enable = {1, 1, 0};
  const auto out = data::resample_servo_log(raw, 0.005);
  // t = 0, 0.005, 0.010 (ceil(0.012 / 0.005) = 3 samples); position = 1000 t (exact line)
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out.dt, 0.005);
  EXPECT_NEAR(out.position[0], 0.0, 1e-12);  // extrapolated before the first entry
  EXPECT_NEAR(out.position[1], 5.0, 1e-12);
  EXPECT_NEAR(out.position[2], 10.0, 1e-12);
  EXPECT_NEAR(out.goal_position[0], -1.0, 1e-12);
  // torque_enable interpolated 1 -> 0 between 0.004 and 0.012: 0.625 at 0.005, 0.25 at 0.010
  EXPECT_EQ(out.torque_enable[1], 1);
  EXPECT_EQ(out.torque_enable[2], 0);
  raw.timestamp[2] = 0.004;
  EXPECT_THROW(data::resample_servo_log(raw, 0.005), std::invalid_argument);
}

TEST(ServoLogResample, MatchesTheReferencePackagesProcessedLog) {
  // The first 10 raw entries of the reference package's own raw log 2026-01-15_10h28m10.json
  // (github.com/Rhoban/bam, bam/data.bak/raw/, Apache-2.0), resampled to 5 ms, must equal the
  // first entries of the processed log of the shared data (made by bam/process.py).
  const std::string path = kShared + "/logs/2026-01-15_10h28m10.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no shared data at " << path;
  data::ServoLog raw;
  raw.mass = 0.49;
  raw.length = 0.1;
  raw.kp = 100;
  raw.timestamp = {0.003500699996948242, 0.00870513916015625,  0.013885021209716797,
                   0.019139766693115234, 0.024324893951416016, 0.02950453758239746,
                   0.03469586372375488,  0.03989875316619873,  0.04510617256164551,
                   0.05036449432373047};
  raw.position = {-0.003067961575771161,  -0.003067961575771161,  -0.003067961575771161,
                  -0.003067961575771161,  -0.003067961575771161,  -0.003067961575771161,
                  -0.0015339807878858025, -0.0015339807878858025, -0.0015339807878858025,
                  -0.0015339807878858025};
  raw.speed = {0,
               0,
               0,
               0,
               0,
               0,
               0.023980823922402087,
               0.023980823922402087,
               0.023980823922402087,
               0.047961647844804174};
  raw.load = {0, 2, 5, 7, 9, 12, 14, 17, 19, 21};
  raw.input_volts = {7.3, 7.3, 7.3, 7.3, 7.4, 7.3, 7.3, 7.3, 7.3, 7.3};
  raw.temp = std::vector<double>(10, 28.0);
  raw.goal_position = {7.864772933845965e-06, 0.008397945709156108, 0.016867017836179957,
                       0.025789537432300887,  0.034941842943236226, 0.044263538351662586,
                       0.05393964739515972,   0.06377136136120944,  0.07402625509044325,
                       0.0843543079585837};
  raw.torque_enable = std::vector<unsigned char>(10, 1);
  const auto out = data::resample_servo_log(raw, 0.005);
  const auto ref = io::read_servo_log(path).log;
  ASSERT_EQ(out.size(), 11u);
  for (std::size_t k = 0; k < out.size(); ++k) {
    SCOPED_TRACE("entry " + std::to_string(k));
    EXPECT_NEAR(out.timestamp[k], ref.timestamp[k], 1e-15);
    EXPECT_NEAR(out.position[k], ref.position[k], 1e-15);
    EXPECT_NEAR(out.speed[k], ref.speed[k], 1e-15);
    EXPECT_NEAR(out.goal_position[k], ref.goal_position[k], 1e-15);
    EXPECT_NEAR(out.load[k], ref.load[k], 1e-13);
    EXPECT_NEAR(out.input_volts[k], ref.input_volts[k], 1e-13);
    EXPECT_EQ(out.torque_enable[k], ref.torque_enable[k]);
  }
}

TEST(ServoLogSelect, ByKpTrajectoryAndFile) {
  std::vector<data::ServoLog> logs(3);
  logs[0].file = "d/a.json";
  logs[0].kp = 100;
  logs[0].trajectory = "sin_sin";
  logs[1].file = "d/b.json";
  logs[1].kp = 200;
  logs[1].trajectory = "sin_sin";
  logs[2].file = "d/c.json";
  logs[2].kp = 200;
  logs[2].trajectory = "up_and_down";
  data::ServoLogFilter f;
  EXPECT_EQ(data::select_servo_logs(logs, f).size(), 3u);
  f.kp = {200};
  EXPECT_EQ(data::select_servo_logs(logs, f).size(), 2u);
  f.trajectory = {"sin_sin"};
  ASSERT_EQ(data::select_servo_logs(logs, f).size(), 1u);
  EXPECT_EQ(data::select_servo_logs(logs, f)[0].file, "d/b.json");
  f = {};
  f.files = {"c.json", "d/a.json"};
  EXPECT_EQ(data::select_servo_logs(logs, f).size(), 2u);
}

const char* kM6 = R"({
    "kt": 0.36601349688984386, "R": 2.8113923539223227, "armature": 0.0018077432831600838,
    "q_offset": 0.0271132870444849, "friction_base": 0.004771183165566,
    "friction_stribeck": 0.004676345799486616, "load_friction_motor": 0.2667860954283698,
    "load_friction_external": 8.515871897059342e-06,
    "load_friction_motor_stribeck": 1.0722918395099123e-05,
    "load_friction_external_stribeck": 0.08077928978935671,
    "load_friction_motor_quad": 0.009972471242139415,
    "load_friction_external_quad": 0.004902565732332559,
    "dtheta_stribeck": 2.890372094130307, "alpha": 8.683259907618984,
    "friction_viscous": 0.005359668274599504, "model": "m6", "actuator": "xl330"})";

/// The message of the InputError reading kM6 with the text `from` replaced by `to` throws, or
/// "no error".
std::string m6_error(const std::string& from, const std::string& to) {
  const std::string text = replace(kM6, from, to);
  return testing::message_or_no_error<io::InputError>(
      [&] { io::parse_servo_params(text, "p.json"); });
}

TEST(ServoParamsFile, ReadsBamKeysAndRoundTrips) {
  const auto f = io::parse_servo_params(kM6, "p.json");
  EXPECT_EQ(f.actuator.name, "xl330");
  EXPECT_EQ(f.params.model, ActuatorModel::M6);
  EXPECT_EQ(f.params.friction.Kc, 0.004771183165566);
  EXPECT_EQ(f.params.friction.Kmq, 0.009972471242139415);
  EXPECT_EQ(f.params.friction.vs, 2.890372094130307);
  EXPECT_EQ(f.actuator.constants.error_gain, (4096.0 / (2.0 * std::numbers::pi)) / (256.0 * 885.0));
  const std::string text = io::servo_params_json(f);
  const auto g = io::parse_servo_params(text, "q.json");
  EXPECT_EQ(io::servo_params_json(g), text);
  for (auto key : sim::servo_param_keys(ActuatorModel::M6, sim::ServoDrive::voltage))
    EXPECT_EQ(sim::servo_param(g.params, key), sim::servo_param(f.params, key)) << key;
  // BAM's key order
  EXPECT_LT(text.find("\"kt\""), text.find("\"friction_base\""));
  EXPECT_LT(text.find("\"alpha\""), text.find("\"friction_viscous\""));
  EXPECT_LT(text.find("\"friction_viscous\""), text.find("\"model\""));
}

TEST(ServoParamsFile, ErrorsNameTheParameter) {
  EXPECT_EQ(m6_error("\"model\": \"m6\"", "\"model\": \"m7\""),
            "p.json: parameter 'model': unknown model 'm7' (m1, m2, m3, m4, m5, m6)");
  EXPECT_EQ(m6_error("\"friction_viscous\": 0.005359668274599504,", ""),
            "p.json: parameter 'friction_viscous': missing (model m6)");
  // (keys are checked in name order: 'alpha' is the first key of the m6 file that m1 lacks)
  EXPECT_EQ(m6_error("\"model\": \"m6\"", "\"model\": \"m1\"").substr(0, 69),
            "p.json: parameter 'alpha': not a parameter of model m1 with actuator ");
  EXPECT_EQ(m6_error("\"friction_viscous\": 0.005359668274599504", "\"friction_viscous\": -1"),
            "p.json: parameter 'friction_viscous': -1 N m s/rad is outside the plausible range "
            "[0, 10000] N m s/rad");
  EXPECT_EQ(m6_error("\"R\": 2.8113923539223227", "\"R\": 0"),
            "p.json: parameter 'R': 0 ohm is outside the plausible range [1e-06, 1e+06] ohm");
  // absurd magnitudes: refused at read time with the plausible range (sim/servo_limits.hpp)
  EXPECT_EQ(
      m6_error("\"kt\": 0.36601349688984386", "\"kt\": 5000"),
      "p.json: parameter 'kt': 5000 N m/A is outside the plausible range [1e-06, 1000] N m/A");
  EXPECT_EQ(m6_error("\"R\": 2.8113923539223227", "\"R\": 1e300"),
            "p.json: parameter 'R': |1e+300| is beyond the limit 1e+15 of any number (SI units)");
  EXPECT_EQ(m6_error("\"R\": 2.8113923539223227", "\"R\": 5e-324"),
            "p.json: parameter 'R': 5e-324 ohm is outside the plausible range [1e-06, 1e+06] ohm");
  EXPECT_EQ(m6_error("\"actuator\": \"xl330\"", "\"actuator\": \"xl330\", \"command_delay\": 0.01"),
            "p.json: parameter 'command_delay': a non-zero command delay (newer BAM) is not "
            "supported; got 0.01");
  EXPECT_EQ(m6_error("\"actuator\": \"xl330\"", "\"actuator\": \"generic\""),
            "p.json: parameter 'error_gain': missing (required for a generic actuator)");
  EXPECT_EQ(
      m6_error("\"actuator\": \"xl330\"", "\"actuator\": \"ax12\""),
      "p.json: parameter 'actuator': unknown actuator 'ax12' (built in: mx106, mx64, sts3215, "
      "sts3215-12v, xc330m288t, xl320, xl330); to add one, write an ACTUATOR.json "
      "(docs/actuators.md, \"ACTUATOR.json\") and give its path instead of a name");
  // command_delay 0 (written by newer BAM versions) is accepted
  EXPECT_EQ(m6_error("\"actuator\": \"xl330\"", "\"actuator\": \"xl330\", \"command_delay\": 0.0"),
            "no error");
}

TEST(ServoParamsFile, GenericActuatorWithCurrentDrive) {
  const std::string text = R"({"kt": 0.5, "R": 2, "current_limit": 1.2, "armature": 0.001,
      "q_offset": 0, "friction_base": 0.01, "friction_viscous": 0.02, "model": "m1",
      "actuator": "generic", "drive": "current", "error_gain": 0.02, "vin": 12})";
  const auto f = io::parse_servo_params(text, "g.json");
  EXPECT_EQ(f.actuator.constants.drive, sim::ServoDrive::current);
  EXPECT_EQ(f.actuator.constants.error_gain, 0.02);
  EXPECT_EQ(f.actuator.constants.vin, 12.0);
  EXPECT_EQ(f.params.current_limit, 1.2);
  const auto g = io::parse_servo_params(io::servo_params_json(f), "g2.json");
  EXPECT_EQ(io::servo_params_json(g), io::servo_params_json(f));
}

TEST(ServoLogsRead, DirectoryInNameOrder) {
  const auto dir = std::filesystem::path(FRICTIONLAB_BINARY_DIR) / "test_servo_io_logs";
  std::filesystem::create_directories(dir);
  for (const char* name : {"b.json", "a.json"}) {
    std::ofstream out(dir / name);
    out << log_text(entry(0, 0, 0) + "," + entry(0.005, 0, 0));
  }
  std::ofstream(dir / "notes.txt") << "not a log";
  const auto logs = io::read_servo_logs({dir.string()});
  ASSERT_EQ(logs.size(), 2u);
  EXPECT_EQ(std::filesystem::path(logs[0].log.file).filename(), "a.json");
  EXPECT_THROW(io::read_servo_logs({(dir / "missing.json").string()}), io::InputError);
}

TEST(ServoLogsRead, OtherRecordersKeysAreOneSummaryLineAndTheCurrentNeedsItsUnit) {
  // 3 logs in the shape of other recorders (kscale's pendulum recorder): header keys the models
  // do not use, a current in mA, a torque channel; one log says its current unit
  const auto dir = std::filesystem::path(FRICTIONLAB_BINARY_DIR) / "test_servo_io_recorders";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string extra = ", \"current\": 120, \"torque\": 11.5";
  for (const char* name : {"a.json", "b.json", "c.json"}) {
    const bool unit = std::string(name) == "c.json";
    std::ofstream(dir / name) << log_text(
        entry(0, 0, 0, extra) + "," + entry(0.005, 0, 0, extra),
        std::string(", \"actuator_id\": 11, \"ip\": \"x\", "
                    "\"sample_rate\": 100, \"kd\": 0, \"ki\": 0") +
            (unit ? ", \"current_unit\": \"mA\"" : ""));
  }
  const auto set = io::read_servo_log_set({dir.string()});
  ASSERT_EQ(set.logs.size(), 3u);
  ASSERT_EQ(set.warnings.size(), 1u);  // one line for the run, not one per log
  EXPECT_EQ(set.warnings[0],
            "keys the models do not use, in 3 logs: actuator_id, entries[].current (its unit is "
            "not known: give \"current_unit\") (2 of 3), entries[].torque, ip, sample_rate");
  EXPECT_EQ(set.logs[2].current_to_amps(), 1e-3);
  EXPECT_EQ(set.logs[0].current_to_amps(), 0.0);
  // the unit for the logs that do not say
  io::ServoLogReadOptions mA;
  mA.current_unit = "mA";
  const auto with_unit = io::read_servo_log_set({dir.string()}, mA);
  EXPECT_EQ(
      with_unit.warnings[0],
      "keys the models do not use, in 3 logs: actuator_id, entries[].torque, ip, sample_rate");
  EXPECT_EQ(with_unit.logs[0].current_to_amps(), 1e-3);
  EXPECT_EQ(
      error_of(log_text(entry(0, 0, 0) + "," + entry(0.005, 0, 0), ", \"current_unit\": \"amps\"")),
      "log.json: key 'current_unit': expected \"A\" or \"mA\", got \"amps\"");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace frictionlab
