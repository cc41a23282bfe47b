/* frictionlab's friction inside MuJoCo on a two-link arm: a shoulder with LuGre friction
 * (shoulder_lugre.json) driven by a torque motor, and an elbow driven by an XL330 servo with its
 * fitted M6 friction (xl330_m6.json). For 4 s the shoulder motor swings the arm (0.8 N m at
 * 0.5 Hz) while the servo's goal follows a slow sine; then the motor stops and the goal holds.
 *
 *   two_link_arm [DIR]     DIR holds two_link_arm.xml and two_link_arm.json (default: .)
 *
 * Prints both joints every 0.5 s; exits 1 unless friction brings the arm to rest (the shoulder's
 * pre-sliding velocity below 1e-3 rad/s, the servo stuck: |qd| below 1e-12 rad/s). */
#include <frictionlab/mujoco/friction.h>
#include <math.h>
#include <mujoco/mujoco.h>
#include <stdio.h>

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  char path[1024], error[1000];
  snprintf(path, sizeof path, "%s/two_link_arm.xml", dir);
  mjModel* m = mj_loadXML(path, NULL, error, sizeof error);
  if (!m) {
    fprintf(stderr, "%s: %s\n", path, error);
    return 1;
  }
  mjData* d = mj_makeData(m);
  snprintf(path, sizeof path, "%s/two_link_arm.json", dir);
  flmj_friction* fl = flmj_load(m, path, error, sizeof error);
  if (!fl) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  flmj_install(fl);

  const int motor = mj_name2id(m, mjOBJ_ACTUATOR, "shoulder_motor");
  const int goal = mj_name2id(m, mjOBJ_ACTUATOR, "elbow_goal");
  const double pi = 3.141592653589793;
  for (int k = 1; k <= 7000; ++k) {
    const double t = d->time;
    d->ctrl[motor] = t < 4.0 ? 0.8 * sin(2 * pi * 0.5 * t) : 0.0;
    d->ctrl[goal] = t < 4.0 ? 0.6 * sin(2 * pi * 0.25 * t) : 0.0;
    mj_step(m, d);
    if (k % 500 == 0) {
      flmj_torques s, e;
      flmj_get_torques(fl, "shoulder", &s);
      flmj_get_torques(fl, "elbow", &e);
      printf(
          "t %.1f s  shoulder %+.4f rad %+.4f rad/s (LuGre %+.4f N m)  elbow %+.4f rad "
          "%+.4f rad/s (motor %+.4f, friction %+.4f N m)\n",
          d->time, d->qpos[0], d->qvel[0], s.friction, d->qpos[1], d->qvel[1], e.motor, e.friction);
    }
  }
  const int rests = fabs(d->qvel[0]) < 1e-3 && fabs(d->qvel[1]) < 1e-12;
  printf("at rest after 3 s without drive: shoulder qd %.2g rad/s, elbow qd %.2g rad/s\n",
         d->qvel[0], d->qvel[1]);

  flmj_free(fl);
  mj_deleteData(d);
  mj_deleteModel(m);
  return rests ? 0 : 1;
}
