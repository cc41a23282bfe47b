// frictionlab identify: SR3, sparse relaxed regularized regression with an l0 penalty, and the
// Newton-Raphson search of nonlinear library parameters embedded in it (reference 004, sec. 3.2,
// eq. 7-12; Zheng, Askham, Brunton, Kutz & Aravkin 2018, "A unified framework for sparse
// relaxed regularized regression: SR3", IEEE Access 7; Champion, Zheng, Aravkin, Brunton & Kutz
// 2020, "A unified sparse optimization framework to learn parsimonious physics-informed models
// from data", IEEE Access 8). The generic core: it knows nothing about joints.
// docs/joint-identification.md, section "sr3", states every convention below with the reasons.
//
// Problem (04_* eq. 9), for a library Theta(alpha) (n samples x r candidate functions, eq. 7-8)
// and a measured vector y:
//   min_{xi, W}  1/2 ||Theta_s xi_s - y_s||^2 + lambda ||W||_0 + 1/(2 nu) ||xi_s - W||^2
// in scaled variables (Options::normalize, the default):
//   Theta_s = Theta D^-1,  D = diag(||theta_j||_2)  (every column has unit 2-norm),
//   y_s = y / ||y||_2,  xi_s,j = xi_j ||theta_j|| / ||y||.
// So |xi_s,j| is the 2-norm of term j's contribution theta_j xi_j as a fraction of ||y||:
// lambda and nu are dimensionless and independent of the units of the columns, of the torque
// scale and of the number of samples. normalize = false applies the equations to Theta and y
// as given (the paper's literal form; thresholds then compare raw coefficients).
//
// Iteration (04_* sec. 3.2, steps 2-4), k = 0, 1, ..., from W_0 (Start::W, default 0):
//   xi_{k+1} = (A + I/nu)^-1 (b + W_k / nu),  A = Theta_s^T Theta_s,  b = Theta_s^T y_s  (eq. 10)
//   W_{k+1}  = prox_{nu lambda l0}(xi_{k+1}):  W_j = xi_j if |xi_j| >= sqrt(2 nu lambda), else 0
// (the hard threshold, Zheng et al. 2018 table 1; columns in Options::protect are never
// thresholded). A is formed once per alpha and (A + I/nu) factored once (Cholesky).
// Stop when max_j |W_{k+1,j} - W_{k,j}| <= tolerance and max_j |xi_{k+1,j} - xi_{k,j}| <=
// tolerance (scaled units), or after max_iterations. With accelerate = true, once the support of
// W has stayed the same for `accelerate_after` iterations the iteration jumps to the fixed point
// of eq. 10 for that support S: (A + P_N / nu) xi = b (P_N projects onto the columns outside
// S), i.e. W = P_S xi; if the prox of that xi has support S it is the SR3 fixed point and the
// iteration ends, else it continues from it. The fixed points are the same as without the jump.
// lambda = 0 makes the prox the identity, whose only fixed point is the least-squares solution:
// it is computed directly (column-pivoted QR) instead of iterated.
//
// Nonlinear parameters alpha (04_* steps 5-6, eq. 11-12). After the xi/W iteration has
// converged, E(alpha) = ||Theta(alpha) xi - y||^2 is minimised by Newton-Raphson with
//   g_i  = sum_k r_k (dTheta/dalpha_i xi)_k,                       r = Theta(alpha) xi - y
//   H_ij = sum_k r_k (d2Theta/dalpha_i dalpha_j xi)_k + sum_k (dTheta/dalpha_i xi)_k
//   (dTheta/dalpha_j xi)_k
// (eq. 12; g and H are half the gradient and Hessian of E, which leaves the step H^-1 g
// unchanged). Two choices where the paper is silent or where its literal form fails:
//  - the coefficients are those of the current sparse model: the columns of the support S of W
//    plus the protected ones, re-solved by least squares at every trial alpha (variable
//    projection, E(alpha) = min_c ||Theta_S(alpha) c - y||^2, whose gradient is eq. 12's g with
//    xi = c by the envelope theorem). With the relaxed xi held fixed, as eq. 11 is written, the
//    small entries of xi that the threshold rejects move alpha while no column depending on it
//    is in the model (measured: Omega_s drifted from 0.05 to 1.2 rad/s before any exponential
//    was active), and alternating fixed coefficients with alpha converges very slowly because
//    Omega_s and the Stribeck levels are strongly coupled (measured: Omega_s at 0.069 instead of
//    0.1 after 30 rounds on a noise-level problem). If no column of S depends on alpha, alpha
//    stays where it is.
//  - safeguards: if H is not positive definite its Gauss-Newton part (the second sum) is used;
//    the step is limited to max_newton_step (inf-norm), kept inside the library's bounds, and
//    halved until E decreases (at most 10 times); an accepted step is then doubled while E keeps
//    decreasing (within the limit and the bounds): eq. 12's H ignores that the coefficients
//    follow alpha, overestimates the curvature of the projected E and gives steps that fall
//    short (measured: 50 Newton iterations per round without converging on the DFKI record).
//    Newton stops when the step is <= newton_tolerance, when the decrease the quadratic model
//    predicts or the realised decrease is below newton_rel_decrease * E, when 10 halvings do
//    not decrease E, or after max_newton_iterations.
// Then the xi/W iteration restarts from the current W at the new alpha (04_* step 6), until
// alpha moves by <= alpha_tolerance in one round (converged) or after max_alpha_rounds rounds.
// The alternation can cycle: the threshold keeps support A at the optimal alpha of support B
// and support B at the optimal alpha of support A (measured on the DFKI pendulum record). A
// round that starts from a (support, alpha) already visited ends the loop at the visited state
// (after its Newton search) with the lowest cost 1/2 E / ||y||^2 + lambda k (scaled units,
// k = support size); Result::cycled says so and the result counts as converged.
//
// Debiasing (04_* sec. 3.2, last paragraph, "the coefficients of the remaining active
// functions are then determined at the end of SR3 by least squares"): with debias = true the
// returned xi is the least-squares solution on the active columns (support of W plus the
// protected columns) at the final alpha; otherwise it is the final W.
//
// Degenerate columns (2-norm <= degenerate_column * ||y||, e.g. a Stribeck exponential at a
// tiny Omega_s, or a zero column) are left out of the regression: coefficient 0, never active,
// listed in Result::degenerate.
//
// Host side: allocates; std::invalid_argument for inconsistent arguments (sizes, non-finite
// values, nu <= 0, lambda < 0).
#pragma once

#include <Eigen/Dense>
#include <utility>
#include <vector>

namespace frictionlab::identify {

/// Theta(alpha) (04_* eq. 7-8): rows() samples x cols() candidate functions; the columns may
/// depend on num_alpha() nonlinear parameters (eq. 11-12).
class Sr3Library {
 public:
  virtual ~Sr3Library() = default;
  virtual Eigen::Index rows() const = 0;
  virtual Eigen::Index cols() const = 0;
  virtual Eigen::Index num_alpha() const { return 0; }
  /// Whether column j changes with alpha (only those are re-evaluated when alpha moves).
  virtual bool depends_on_alpha(Eigen::Index /*j*/) const { return false; }
  /// Theta(alpha) into theta (rows x cols). With alpha_columns_only, theta already holds the
  /// library at another alpha and only the columns that depend on alpha need be written.
  virtual void evaluate(const Eigen::VectorXd& alpha, Eigen::MatrixXd& theta,
                        bool alpha_columns_only) const = 0;
  /// value = Theta(alpha) xi; if d1 (rows x num_alpha) is given, d1.col(i) = dTheta/dalpha_i
  /// xi; if d2 (rows x num_alpha^2) is given, d2.col(i*num_alpha + j) = d2Theta/dalpha_i
  /// dalpha_j xi. The default computes value from evaluate() and supports num_alpha() == 0 only.
  virtual void apply(const Eigen::VectorXd& alpha, const Eigen::VectorXd& xi,
                     Eigen::VectorXd& value, Eigen::MatrixXd* d1, Eigen::MatrixXd* d2) const;
  /// Bounds of alpha (Newton steps are kept inside); default unbounded.
  virtual Eigen::VectorXd alpha_lower() const;
  virtual Eigen::VectorXd alpha_upper() const;
};

/// A fixed matrix as a library (no nonlinear parameters).
class MatrixSr3Library final : public Sr3Library {
 public:
  explicit MatrixSr3Library(Eigen::MatrixXd theta) : theta_(std::move(theta)) {}
  Eigen::Index rows() const override { return theta_.rows(); }
  Eigen::Index cols() const override { return theta_.cols(); }
  void evaluate(const Eigen::VectorXd&, Eigen::MatrixXd& theta, bool) const override {
    theta = theta_;
  }
  void apply(const Eigen::VectorXd&, const Eigen::VectorXd& xi, Eigen::VectorXd& value,
             Eigen::MatrixXd*, Eigen::MatrixXd*) const override {
    value.noalias() = theta_ * xi;
  }

 private:
  Eigen::MatrixXd theta_;
};

struct Sr3Options {
  double lambda = 0;      ///< l0 weight (scaled units when normalize); threshold sqrt(2 nu lambda)
  double nu = 1;          ///< relaxation, > 0
  bool normalize = true;  ///< unit-norm columns and y (see the header); false: literal eq. 10
  /// Columns never thresholded (size cols() or empty for none).
  std::vector<bool> protect;
  int max_iterations = 10000;     ///< xi/W iterations per alpha round
  double tolerance = 1e-10;       ///< on the change of W and xi per iteration (scaled units)
  bool accelerate = true;         ///< jump to the fixed point of a stable support
  int accelerate_after = 20;      ///< iterations with the same support before the jump
  int max_alpha_rounds = 30;      ///< xi/W <-> Newton rounds (04_* step 6)
  double alpha_tolerance = 1e-5;  ///< alpha change in one round that counts as converged
  int max_newton_iterations = 50;
  double newton_tolerance = 1e-9;  ///< accepted Newton step that ends the search
  /// Relative decrease of E (predicted by the quadratic model, or realised by an accepted step)
  /// below which the Newton search ends: on a long record with nearly collinear exponentials
  /// E(alpha) has flat valleys along which alpha creeps at ever smaller gains (measured on a
  /// 25 000-sample record: 30 rounds x 50 Newton iterations, 15 s, for a 1e-10 change of E).
  double newton_rel_decrease = 1e-9;
  double max_newton_step = 1.0;      ///< inf-norm limit of one Newton step
  bool debias = true;                ///< final least squares on the active columns
  double degenerate_column = 1e-12;  ///< relative column norm below which a column is left out
};

/// Where to start: alpha (size num_alpha()) and, optionally, W in raw (unscaled) coefficients
/// (empty: W = 0, the paper's default start).
struct Sr3Start {
  Eigen::VectorXd alpha;
  Eigen::VectorXd W;
};

struct Sr3Result {
  Eigen::VectorXd xi;          ///< final coefficients (raw units; debiased if Options::debias)
  Eigen::VectorXd xi_relaxed;  ///< the last xi iterate (raw units)
  Eigen::VectorXd W;           ///< the last W (raw units)
  Eigen::VectorXd alpha;       ///< final nonlinear parameters
  std::vector<bool> active;    ///< support of W plus protected columns (not degenerate)
  std::vector<bool> degenerate;
  Eigen::VectorXd scale;  ///< xi_s = xi .* scale (||theta_j|| / ||y||; 1 without normalize)
  double y_norm = 0;      ///< ||y||_2
  int iterations = 0;     ///< xi/W iterations over all rounds
  int alpha_rounds = 0;   ///< rounds of 04_* step 6 done
  int newton_iterations = 0;
  bool converged = false;  ///< every xi/W loop and alpha converged within the limits
  bool cycled = false;     ///< the rounds ended on a cycle (see the header)
  double rss = 0;          ///< ||Theta(alpha) xi - y||^2 with the returned xi
  int num_active() const;
};

/// One xi/W iterate (raw units), for inspection and tests.
struct Sr3Iterate {
  int round = 0;  ///< alpha round (0-based)
  Eigen::VectorXd xi, W;
  bool jump = false;  ///< produced by the fixed-point jump (accelerate)
};

/// SR3 with Newton-Raphson on alpha (see the header). `trace`, if given, receives every xi/W
/// iterate.
Sr3Result sr3(const Sr3Library& library, const Eigen::VectorXd& y, const Sr3Options& options,
              const Sr3Start& start, std::vector<Sr3Iterate>* trace = nullptr);

/// SR3 on a fixed matrix.
Sr3Result sr3(const Eigen::MatrixXd& theta, const Eigen::VectorXd& y, const Sr3Options& options,
              std::vector<Sr3Iterate>* trace = nullptr);

/// Least squares on the columns in `use` (others 0), column-pivoted QR of the column-normalised
/// matrix. Returns raw coefficients of size theta.cols().
Eigen::VectorXd least_squares_on(const Eigen::MatrixXd& theta, const Eigen::VectorXd& y,
                                 const std::vector<bool>& use);

}  // namespace frictionlab::identify
