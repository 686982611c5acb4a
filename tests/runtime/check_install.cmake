# Installs the build into a scratch prefix and checks slimpack-run there: the launcher in bin/, its
# package in share/slimpack-explorer/python, and that the installed launcher starts from the
# prefix (not the source tree): `--version` names the package folder it runs.
#   cmake -DBUILD_DIR=... -DPREFIX=... -P check_install.cmake
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}): ${err}")
endif()
foreach(f bin/slimpack-run share/slimpack-explorer/python/slimpack_runtime/cli.py
          share/slimpack-explorer/python/slimpack_runtime/sampler.py
          share/slimpack-explorer/python/slimpack_runtime/__main__.py
          share/slimpack-explorer/python/requirements.txt share/slimpack-explorer/runtime-env.sh
          lib/python3/dist-packages/slimpack_runtime.pth
          share/slimpack-explorer/samples/models/tiny-8x256.json share/doc/slimpack-explorer/runtime.md)
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "not installed: ${PREFIX}/${f}")
  endif()
endforeach()
execute_process(COMMAND ${PREFIX}/bin/slimpack-run --version OUTPUT_VARIABLE out
                ERROR_VARIABLE errout RESULT_VARIABLE rc WORKING_DIRECTORY ${PREFIX})
if(NOT rc EQUAL 0 OR NOT out MATCHES "^slimpack-run [0-9]+\\.[0-9]+\\.[0-9]+")
  message(FATAL_ERROR "installed slimpack-run --version: rc=${rc} '${out}${errout}'")
endif()
string(FIND "${out}" "(package in ${PREFIX}/share/slimpack-explorer/python/slimpack_runtime" at)
if(at EQUAL -1)
  message(FATAL_ERROR "installed slimpack-run runs another copy of its package: '${out}'")
endif()
file(READ ${PREFIX}/lib/python3/dist-packages/slimpack_runtime.pth pth)
string(STRIP "${pth}" pth)
get_filename_component(resolved "${PREFIX}/lib/python3/dist-packages/${pth}" ABSOLUTE)
if(NOT resolved STREQUAL "${PREFIX}/share/slimpack-explorer/python")
  message(FATAL_ERROR "slimpack_runtime.pth leads to '${resolved}', not the installed package folder")
endif()
