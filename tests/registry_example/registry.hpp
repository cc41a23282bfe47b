// The registration line of the worked example: the library's models plus fluid-drag, in a
// test-only list (in the library the line goes into `Models` of models/registry.hpp).
#pragma once

#include "fluid_drag/info.hpp"
#include "frictionlab/models/registry.hpp"

namespace frictionlab::example {

template <class List, class Info>
struct append;
template <class... Infos, class Info>
struct append<ModelList<Infos...>, Info> {
  using type = ModelList<Infos..., Info>;
};

using ExampleModels = append<Models, FluidDragInfo>::type;

}  // namespace frictionlab::example
