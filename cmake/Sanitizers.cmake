# Sanitizers as an INTERFACE target chosen by SLIMPACK_SANITIZE ("address,undefined" or "thread").
add_library(slimpack_sanitizers INTERFACE)
set(SLIMPACK_SANITIZE "" CACHE STRING "Sanitizers to enable: address,undefined | thread | empty")
if(SLIMPACK_SANITIZE)
  # -O1 after the build type's flags: what the sanitizers' authors recommend, and about three
  # times faster than -O0 on the solver-heavy tests, with stack traces still exact enough.
  target_compile_options(slimpack_sanitizers INTERFACE -fsanitize=${SLIMPACK_SANITIZE}
    -fno-omit-frame-pointer -fno-sanitize-recover=all -O1)
  target_link_options(slimpack_sanitizers INTERFACE -fsanitize=${SLIMPACK_SANITIZE})
endif()
