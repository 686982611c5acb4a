#pragma once
// Finds and loads the CBC module (milp_module_abi.h) on first use. Programs do not link CBC: a
// command that solves no MILP never maps CBC, Clp, LAPACK or OpenBLAS (whose threads spin).
//
// Where the module is looked for, first found wins:
//   1. $SLIMPACK_MILP_MODULE, when set (a path; nothing else is tried);
//   2. beside the installed programs: <directory of the executable>/SLIMPACK_MILP_MODULE_REL,
//      the relative path from bin/ to the module's install directory (lib/.../slimpack-explorer);
//   3. the build tree: where CMake wrote the module (SLIMPACK_MILP_MODULE_BUILD), so that programs
//      and tests run from a build directory find it too.
#include <string>

#include "solver/milp/milp_module_abi.h"

namespace slimpack::milp_detail {

struct MilpModule {
  SlimpackMilpSolveFn solve = nullptr;
  std::string path;  // the file that was loaded
};

// The loaded module, or null with `why` (every place tried and dlerror's reason). Loads once per
// process (thread-safe); later calls return the same answer.
const MilpModule* milp_module(std::string* why = nullptr);

// Whether this process has loaded the module (for tests: it must not happen before a MILP solve).
bool milp_module_loaded();

}  // namespace slimpack::milp_detail
