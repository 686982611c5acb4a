# Warnings as an INTERFACE target: link it, do not set global flags.
add_library(slimpack_warnings INTERFACE)
if(MSVC)
  target_compile_options(slimpack_warnings INTERFACE /W4)
else()
  target_compile_options(slimpack_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow=local
    -Wnon-virtual-dtor -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough)
  # GCC 12 reports a false -Wrestrict inside libstdc++'s operator+(const char*, string&&) at -O2/-O3
  # (GCC bug 105329, fixed in 13); it only adds noise to Release builds.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(slimpack_warnings INTERFACE -Wno-restrict)
  endif()
  # -Wnull-dereference is left out: at -O2 it reports false positives inside nlohmann/json.hpp.
  if(SLIMPACK_WARNINGS_AS_ERRORS)
    # GCC 12's flow-sensitive warnings give false positives inside libstdc++ at -O2 (optional,
    # string): they stay warnings, everything else is an error.
    target_compile_options(slimpack_warnings INTERFACE -Werror -Wno-error=maybe-uninitialized
      -Wno-error=restrict -Wno-error=array-bounds -Wno-error=stringop-overflow)
  endif()
endif()
