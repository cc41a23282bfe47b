/* frictionlab: frictionlab's friction computed inside MuJoCo (C API; docs/mujoco.md,
 * "frictionlab's friction inside MuJoCo"). Linked as frictionlab::mujoco (find_package
 * (frictionlab COMPONENTS mujoco)), against MuJoCo 2.2 or later (Debian's libmujoco-dev 2.2.2).
 *
 * A MuJoCo program attaches it in two lines, after loading its model:
 *
 *   flmj_friction* fl = flmj_load(m, "MUJOCO.json", error, sizeof error);
 *   flmj_install(fl);                   // MuJoCo's mjcb_passive now calls frictionlab
 *
 * MUJOCO.json (docs/file-formats.md) names the joints and, for each, either the parameter file
 * of a servo (`frictionlab fit-actuator`'s m1.json .. m6.json) or a friction model (`fit`'s
 * fit.json, `fit-joint`'s joint_fit.json, a MODEL.json: lugre, joint-lugre where it is a lugre
 * set, coulomb, viscous, coulomb-viscous, stribeck). Every step:
 *   - a servo's firmware computes its output from the goal position (the ctrl of the joint's
 *     "goal" actuator, which must apply no force itself: gain and bias 0) and the joint's
 *     position and velocity (sim/servo.hpp: the P / PD / PID law, deadband, control period,
 *     duty and current limits, at MuJoCo's timestep), and its DC motor gives the torque
 *     tau_m = kt (V - kt qd) / R (voltage drive) or kt i (current drive), 0 while the torque is
 *     disabled (flmj_set_torque_enable);
 *   - the external torque tau_e on each joint: gravity and Coriolis (-qfrc_bias), MuJoCo's own
 *     passive forces, qfrc_applied and the forces of the actuators with gain and bias of type
 *     fixed or affine;
 *   - a servo's friction budget of its model M1..M6 from (qd, tau_m, tau_e)
 *     (models/actuator_budgets.hpp), and a static model's g(qd) + sigma2 |qd| (Fs at rest; a
 *     smoothed sign is taken as the exact one), applied by the stopping-torque rule: friction
 *     brings the joint to rest within the step if the budget allows, and never reverses its
 *     motion;
 *   - a LuGre joint's friction from an implicit step: the velocity the step ends with solves
 *     v+ = v_free - h c F(v+), F with the bristle state updated exactly for v+ held over the
 *     step (src/mujoco/friction_step.hpp; in substeps of at most 1 ms): stable for any bristle
 *     stiffness at MuJoCo's timestep, of first order as MuJoCo's Euler step is;
 *   - a joint fit's load dependence (`fit-joint --load-dependent`) under the torque applied on
 *     the joint, tau = qfrc_applied and the actuators' forces at its dof: a static model's level
 *     rises by mu |tau| on the side the joint would move to, a LuGre joint's bristle force by
 *     the factor 1 + mu |tau| / g(v) (mu_drive where tau drives the motion, mu_back where it is
 *     back-driven; docs/models.md, "Load-dependent joint friction"); a temperature law
 *     (a joint fit's or a servo's) at the joint's temperature (flmj_set_temperature).
 * The velocity a step ends with is predicted from MuJoCo's mass matrix (M + h diag(damping)
 * under the Euler integrator, which treats damping implicitly), so with Euler the stopping rule
 * holds exactly; the joints couple through that matrix and are solved together: servos and
 * static models exactly at once (the rule on every joint is a box-constrained convex programme,
 * solved by block principal pivoting), LuGre joints (and a mix of both) at once by Newton's
 * method on their implicit steps with the programme solved inside, and where that stalls by
 * projected Gauss-Seidel over the joints until no friction changes. tau_m + tau_f is added to
 * qfrc_passive (the goal actuator's actuator_force stays 0; flmj_get_torques reports the terms).
 *
 * The state (the firmware's integral and held output, LuGre's bristle deflection) advances once
 * per MuJoCo step: a second evaluation at the same d->time (mj_forward for rendering) reuses the
 * step's. Use the Euler or the implicit integrator: RK4 evaluates at its stages' times, which
 * would advance the state at each.
 *
 * What the MJCF joint must carry: no damping or frictionloss of its own (frictionlab computes
 * them) and, for a servo, armature = the parameter file's armature [kg m^2]; flmj_load refuses
 * it otherwise, naming the file, the line and the joint. Constraint forces (limits, contacts)
 * are solved by MuJoCo after the callback and are not seen by the stopping rule.
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
  double motor;    /**< tau_m: the servo's motor torque (0 for a friction joint) */
  double external; /**< tau_e: everything else on the joint before friction */
  double budget;   /**< the friction budget >= 0 (servo, static model; 0 for LuGre) */
  double friction; /**< the friction applied (within [-budget, budget] where there is one) */
  double control;  /**< the firmware's output: volts (voltage drive) or amps (current drive) */
  double state;    /**< LuGre: the bristle deflection z [rad] at the step's end; else 0 */
} flmj_torques;

/** How the frictions of a context's joints were found since flmj_load (flmj_get_stats): which
 * solve each evaluation took and how much work it was. */
typedef struct flmj_stats {
  long long evaluations;       /**< evaluations of the callback (a step's; mj_forward's too) */
  long long programme_solves;  /**< of them, coupled servos / static models solved at once */
  long long newton_solves;     /**< coupled LuGre joints solved at once by Newton's method */
  long long newton_stalls;     /**< Newton tried but not converged: the sweeps took the step */
  long long sweeps;            /**< Gauss-Seidel sweeps over the joints (mixed joints, a stall) */
  long long sweep_limits;      /**< steps whose sweeps stopped at their limit unconverged */
  long long lugre_evaluations; /**< evaluations of a LuGre joint's friction (F, and dF/du) */
} flmj_stats;

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

/** Set the temperature [degC] of a joint whose friction has a temperature law (a joint fit of
 * `fit-joint --temperature-law`, a servo's parameter file of `fit-actuator --temperature-law`;
 * MUJOCO.json gives its temperature at the start): from the next step its levels and viscous
 * term are the law's at `celsius`. 0 on success; -1 if `joint` is not one of the context's
 * joints with a law, or the law's scale is not positive at `celsius` (a linear law beyond
 * T_ref - 1/kT), or `celsius` is not finite: nothing changes. */
int flmj_set_temperature(flmj_friction* fl, const char* joint, double celsius);

/** The temperature [degC] a joint's law is at; NaN for a joint without a law or not one of the
 * context's. */
double flmj_get_temperature(const flmj_friction* fl, const char* joint);

/** The terms of `joint`'s last step. 0 on success, -1 if it is not one of the context's. */
int flmj_get_torques(const flmj_friction* fl, const char* joint, flmj_torques* out);

/** The counters of `fl`'s solves so far. 0 on success, -1 for a NULL argument. */
int flmj_get_stats(const flmj_friction* fl, flmj_stats* out);

/** Forget the state (firmware memory), as after mj_resetData. */
void flmj_reset(flmj_friction* fl);

#ifdef __cplusplus
}
#endif

#endif /* FRICTIONLAB_MUJOCO_FRICTION_H */
