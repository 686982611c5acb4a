# Test code (GoogleTest and Qt Test files) compiled at -O1 in optimised builds: link it to test
# executables. The code under test, the libraries, keeps the build type's optimisation; the test
# files are mostly macro-generated fixtures whose -O3 code generation is wasted. -O1 compiles them
# in about two thirds of the time of -O3 (measured on tests/core: 18.8 s against 25.4 s for one
# file on the 2-core machine), and the test build is a third of a fresh `scripts/test.sh`.
add_library(slimpack_test_code INTERFACE)
if(NOT MSVC)
  target_compile_options(slimpack_test_code INTERFACE
    $<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-O1>)
endif()
