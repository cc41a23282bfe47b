// Seeds of the `mat` fuzz target (docs/fuzzing.md): small records written by the library's own
// .mat writer (io::write_mat) in every version it reads, in both layouts of
// io/record_io.hpp (named vectors t, v; reference 000's 4xN matrix "data").
//   make_mat_seeds DIR     writes DIR/{v4,v5,v73}_{vectors,matrix}.mat
#include <cstdio>
#include <string>
#include <vector>

#include "frictionlab/io/record_io.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_mat_seeds DIR\n");
    return 2;
  }
  using frictionlab::io::MatVariable;
  using frictionlab::io::MatVersion;
  const std::size_t n = 6;
  std::vector<double> t, v, matrix;
  for (std::size_t k = 0; k < n; ++k) {
    t.push_back(0.01 * static_cast<double>(k));
    v.push_back(0.5 - 0.2 * static_cast<double>(k));
  }
  for (std::size_t k = 0; k < n; ++k)  // column-major 4xN: t, current, velocity, torque
    for (double x : {t[k], 0.1 * v[k], v[k], 2.0 * v[k]}) matrix.push_back(x);
  const std::vector<MatVariable> vectors = {{"t", {n, 1}, t, {}}, {"v", {1, n}, v, {}}};
  const std::vector<MatVariable> layout = {{"data", {4, n}, matrix, {}}};
  const std::string dir = argv[1];
  for (auto [version, tag] : {std::pair{MatVersion::v4, "v4"}, std::pair{MatVersion::v5, "v5"},
                              std::pair{MatVersion::v73, "v73"}}) {
    frictionlab::io::write_mat(dir + "/" + tag + "_vectors.mat", vectors, version);
    frictionlab::io::write_mat(dir + "/" + tag + "_matrix.mat", layout, version);
  }
  return 0;
}
