/* frictionlab: frictionlab's friction computed inside MuJoCo (C API; docs/mujoco.md,
 * "frictionlab's friction inside MuJoCo"). Linked as frictionlab::mujoco (find_package
 * (frictionlab COMPONENTS mujoco)), against MuJoCo 2.2 or later (Debian's libmujoco-dev 2.2.2).
 *
 * A MuJoCo program attaches it in two lines, after loading its model:
 *
 *   flmj_friction* fl = flmj_load(m, "MUJOCO.json", error, sizeof error);
 *   flmj_install(fl);                   // MuJoCo's mjcb_passive now calls frictionlab
 *
 * MUJOCO.json (docs/file-formats.md) names the joints and the parameter files that
 * `frictionlab fit-actuator` writes (m1.json .. m6.json). For each such servo joint, every step:
 *   - the servo's firmware computes its output from the goal position (the ctrl of the joint's
 *     "goal" actuator, which must apply no force itself: gain and bias 0) and the joint's
 *     position and velocity (sim/servo.hpp: the P / PD / PID law, deadband, control period,
 *     duty and current limits, at MuJoCo's timestep);
 *   - the DC motor's torque tau_m = kt (V - kt qd) / R (voltage drive) or kt i (current drive),
 *     0 while the torque is disabled (flmj_set_torque_enable);
 *   - the external torque tau_e on the joint: gravity and Coriolis (-qfrc_bias), MuJoCo's own
 *     passive forces, qfrc_applied and the forces of the other actuators without activation
 *     dynamics (gain and bias of type fixed or affine);
 *   - the friction budget of the fitted model M1..M6 from (qd, tau_m, tau_e)
 *     (models/actuator_budgets.hpp), applied by the stopping-torque rule: friction brings the
 *     joint to rest within the step if the budget allows, and never reverses its motion. The
 *     velocity the step would end with is predicted from MuJoCo's mass matrix (M + h diag(damping)
 *     under the Euler integrator, which treats damping implicitly), so with Euler the rule holds
 *     exactly on a joint whose velocity only the smooth forces change; several friction joints
 *     are taken one after the other, each seeing the friction of those before it.
 * tau_m + tau_f is added to qfrc_passive (MuJoCo's actuator_force of the goal actuator stays 0;
 * flmj_get_torques reports the terms). The firmware's memory (integral, held output) advances once
 * per MuJoCo step: a second evaluation at the same d->time (mj_forward for rendering, RK4's
 * stages) reuses the step's output.
 *
 * What the MJCF joint must carry: armature = the parameter file's armature [kg m^2], and no
 * damping or frictionloss of its own (frictionlab computes them); flmj_load refuses it
 * otherwise, naming the joint and the value. Constraint forces (limits, contacts) are solved by
 * MuJoCo after the callback and are not seen by the stopping rule.
 *
 * Thread safety: a context belongs to one mjData at a time; flmj_install sets MuJoCo's global
 * mjcb_passive (one installed context per process; flmj_apply serves several).
 */
#ifndef FRICTIONLAB_MUJOCO_FRICTION_H
#define FRICTIONLAB_MUJOCO_FRICTION_H

#include <mujoco/mujoco.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The friction of a model's frictionlab joints and their state (firmware memory). */
typedef struct flmj_friction flmj_friction;

/** The terms of a joint's last step [Nm, or N on a slide joint]. */
typedef struct flmj_torques {
  double motor;    /**< tau_m: the servo's motor torque */
  double external; /**< tau_e: everything else on the joint before friction */
  double budget;   /**< the friction budget tau_fm >= 0 */
  double friction; /**< the friction applied, tau_f in [-budget, budget] */
  double control;  /**< the firmware's output: volts (voltage drive) or amps (current drive) */
} flmj_torques;

/** Read MUJOCO.json at `path` for model `m` (its joint and actuator names, the parameter files).
 * NULL on failure, with the message ("FILE:LINE: ...") in error[0..error_size). */
flmj_friction* flmj_load(const mjModel* m, const char* path, char* error, int error_size);

/** Free a context (NULL is accepted); uninstalls it if it is installed. */
void flmj_free(flmj_friction* fl);

/** Make `fl` the context of MuJoCo's mjcb_passive (flmj_passive); NULL uninstalls. */
void flmj_install(flmj_friction* fl);

/** The callback flmj_install sets: flmj_apply with the installed context. */
void flmj_passive(const mjModel* m, mjData* d);

/** Add the friction (and servo torques) of `fl`'s joints to d->qfrc_passive: what the callback
 * does, for a program that has its own mjcb_passive and calls this from it. */
void flmj_apply(flmj_friction* fl, const mjModel* m, mjData* d);

/** Enable (1) or disable (0) a servo's torque (a Dynamixel's torque_enable). 0 on success, -1
 * if `joint` is not one of the context's joints. */
int flmj_set_torque_enable(flmj_friction* fl, const char* joint, int enable);

/** The terms of `joint`'s last step. 0 on success, -1 if it is not one of the context's. */
int flmj_get_torques(const flmj_friction* fl, const char* joint, flmj_torques* out);

/** Forget the state (firmware memory), as after mj_resetData. */
void flmj_reset(flmj_friction* fl);

#ifdef __cplusplus
}
#endif

#endif /* FRICTIONLAB_MUJOCO_FRICTION_H */
