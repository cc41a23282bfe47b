/* frictionlab's friction inside MuJoCo: an XL330 servo with its fitted, load-dependent M6
 * friction (xl330_m6.json) on a pendulum. Its goal is 1 rad for 2 s (the P loop lifts the
 * pendulum until its torque, less gravity, is within what the gears' load-dependent friction
 * holds), then 0; at 4 s the torque is disabled and the pendulum hangs on friction alone.
 *
 *   servo_pendulum [DIR]     DIR holds servo_pendulum.xml and MUJOCO.json (default: .)
 *
 * Prints the joint every 0.25 s; exits 1 unless friction holds the pendulum still (|qd| below
 * 1e-12 rad/s) between 0.5 and 1 rad at 2 s and near the bottom at the end. */
#include <frictionlab/mujoco/friction.h>
#include <math.h>
#include <mujoco/mujoco.h>
#include <stdio.h>

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  char path[1024], error[1000];
  snprintf(path, sizeof path, "%s/servo_pendulum.xml", dir);
  mjModel* m = mj_loadXML(path, NULL, error, sizeof error);
  if (!m) {
    fprintf(stderr, "%s: %s\n", path, error);
    return 1;
  }
  mjData* d = mj_makeData(m);

  /* the two lines that put frictionlab's friction into MuJoCo */
  snprintf(path, sizeof path, "%s/MUJOCO.json", dir);
  flmj_friction* fl = flmj_load(m, path, error, sizeof error);
  if (!fl) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  flmj_install(fl);

  const int goal = mj_name2id(m, mjOBJ_ACTUATOR, "servo_goal");
  double q_held = 0.0, qd_held = 0.0;
  for (int k = 1; k <= 8000; ++k) {
    d->ctrl[goal] = d->time < 2.0 ? 1.0 : 0.0;
    flmj_set_torque_enable(fl, "servo", d->time < 4.0);
    mj_step(m, d);
    if (k == 2000) {
      q_held = d->qpos[0];
      qd_held = d->qvel[0];
    }
    if (k % 250 == 0) {
      flmj_torques t;
      flmj_get_torques(fl, "servo", &t);
      printf(
          "t %.2f s  q %+.4f rad  qd %+.4f rad/s  motor %+.4f Nm  friction %+.4f Nm (budget "
          "%.4f)\n",
          d->time, d->qpos[0], d->qvel[0], t.motor, t.friction, t.budget);
    }
  }
  const int held = q_held > 0.5 && q_held < 1.0 && fabs(qd_held) < 1e-12;
  const int rests = fabs(d->qpos[0]) < 0.05 && fabs(d->qvel[0]) < 1e-12;
  printf(
      "held at %.4f rad (qd %.2g rad/s) for a goal of 1 rad; after the drop at rest at "
      "%.4f rad (qd %.2g rad/s)\n",
      q_held, qd_held, d->qpos[0], d->qvel[0]);

  flmj_free(fl);
  mj_deleteData(d);
  mj_deleteModel(m);
  return held && rests ? 0 : 1;
}
