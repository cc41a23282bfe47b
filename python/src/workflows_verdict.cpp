// frictionlab Python: the verdict on a result (workflows/verdict.hpp; docs/verdicts.md).
#include "workflows_common.hpp"

#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab::python {

void bind_verdict(py::module_& m) {
  using workflows::Verdict;
  using workflows::VerdictReason;
  py::class_<VerdictReason>(m, "VerdictReason",
                            "One reason of a verdict: its grade, rule, what "
                            "was found (text) and what to try (hint).")
      .def_property_readonly("grade",
                             [](const VerdictReason& r) { return workflows::grade_name(r.grade); })
      .def_readonly("rule", &VerdictReason::rule)
      .def_readonly("text", &VerdictReason::text)
      .def_readonly("hint", &VerdictReason::hint)
      .def("__repr__", [](const VerdictReason& r) {
        return "<VerdictReason " + workflows::grade_name(r.grade) + " " + r.rule + ": " + r.text +
               ">";
      });
  py::class_<Verdict>(m, "Verdict", R"doc(
The verdict on a result (workflows::Verdict): grade 'good', 'doubtful' or 'bad', the reasons
worst first (grade 'good' reasons are notes, e.g. a low-pass chosen for you) and line(), the one
line the CLI prints. The rules: docs/verdicts.md.
)doc")
      .def_property_readonly("grade",
                             [](const Verdict& v) { return workflows::grade_name(v.grade); })
      .def_readonly("reasons", &Verdict::reasons)
      .def("line", &Verdict::line,
           "The one line the CLI prints: 'good', or 'bad: ...; doubtful: ...'.")
      .def(
          "to_dict",
          [](const Verdict& v) {
            py::list reasons;
            for (const auto& r : v.reasons)
              reasons.append(py::dict(py::arg("grade") = workflows::grade_name(r.grade),
                                      py::arg("rule") = r.rule, py::arg("text") = r.text,
                                      py::arg("hint") = r.hint));
            return py::dict(py::arg("grade") = workflows::grade_name(v.grade),
                            py::arg("line") = v.line(), py::arg("reasons") = reasons);
          },
          "The verdict as the result files hold it: {'grade', 'line', 'reasons': [{'grade', "
          "'rule', "
          "'text', 'hint'}]} (docs/verdicts.md).")
      .def("__str__", &Verdict::line)
      .def("__repr__", [](const Verdict& v) { return "<Verdict " + v.line() + ">"; });
}

}  // namespace frictionlab::python
