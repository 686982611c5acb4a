# Installs the build into a scratch prefix and checks what a user gets: programs in bin/, the desktop
# entry, icons (every hicolor size and the scalable SVG), the man pages, samples and docs, and that
# the installed explorer finds its samples and docs beside its own executable.
#   cmake -DBUILD_DIR=... -DPREFIX=... -DGUI=ON|OFF -P check_install.cmake
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}): ${err}")
endif()

set(expected
  bin/slimpack
  share/man/man1/slimpack.1
  share/slimpack-explorer/samples/lengths/chat_sft_lengths.csv
  share/slimpack-explorer/samples/plans/analytic-1f1b.json
  share/slimpack-explorer/samples/traces/kineto_small.json.gz
  share/doc/slimpack-explorer/README.md
  share/doc/slimpack-explorer/user-guide.md
  share/doc/slimpack-explorer/images/explorer-main.png)
if(GUI)
  list(APPEND expected
    bin/slimpack-explorer
    share/applications/slimpack-explorer.desktop
    share/icons/hicolor/scalable/apps/slimpack-explorer.svg
    share/man/man1/slimpack-explorer.1)
  foreach(size 16 22 24 32 48 64 128 256)
    list(APPEND expected share/icons/hicolor/${size}x${size}/apps/slimpack-explorer.png)
  endforeach()
endif()
foreach(f ${expected})
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "not installed: ${PREFIX}/${f}")
  endif()
endforeach()

# The man page is made from --help: every command has its section with its options.
file(READ ${PREFIX}/share/man/man1/slimpack.1 man)
foreach(needle ".TH SLIMPACK 1" ".SS simulate" ".SS compare" ".SS trace" "\\-\\-plan" ".SH EXIT STATUS")
  string(FIND "${man}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "slimpack.1 lacks '${needle}'")
  endif()
endforeach()

execute_process(COMMAND ${PREFIX}/bin/slimpack --version OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^slimpack [0-9]+\\.[0-9]+\\.[0-9]+")
  message(FATAL_ERROR "installed slimpack --version: rc=${rc} '${out}'")
endif()

if(MILP_MODULE)
  # The MILP solver's CBC module is loaded from beside the installed programs, not the build tree
  # (SLIMPACK_MILP_MODULE names the installed file, and only it is tried).
  if(NOT EXISTS ${PREFIX}/${MILP_MODULE})
    message(FATAL_ERROR "not installed: ${PREFIX}/${MILP_MODULE}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=SLIMPACK_MILP_MODULE
                          ${PREFIX}/bin/slimpack solve --preset chat-sft --batch-tokens 65536
                          --strategy slimpack --exact --time-limit 1 --json -
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "exact: 1 replica\\(s\\) by MILP")
    message(FATAL_ERROR "installed slimpack solve --exact (rc=${rc}): ${err}")
  endif()
  file(RENAME ${PREFIX}/${MILP_MODULE} ${PREFIX}/${MILP_MODULE}.away)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env SLIMPACK_MILP_MODULE=${PREFIX}/${MILP_MODULE}
                          ${PREFIX}/bin/slimpack solve --preset chat-sft --batch-tokens 65536
                          --strategy slimpack --exact --out /dev/null
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  file(RENAME ${PREFIX}/${MILP_MODULE}.away ${PREFIX}/${MILP_MODULE})
  if(rc EQUAL 0 OR NOT err MATCHES "cannot load the CBC module")
    message(FATAL_ERROR "a missing CBC module is not reported (rc=${rc}): ${err}")
  endif()
endif()

if(GUI)
  # A picture: the installed `slimpack` runs the private `slimpack-pictures` from the modules'
  # directory (app/cli/CMakeLists.txt), and itself maps no Qt library (its start stays light).
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=SLIMPACK_PICTURES_PROGRAM
                          ${PREFIX}/bin/slimpack simulate --preset chat-sft --png ${PREFIX}/g.png
                          --quiet
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT EXISTS ${PREFIX}/g.png)
    message(FATAL_ERROR "installed slimpack simulate --png (rc=${rc}): ${err}")
  endif()
  execute_process(COMMAND readelf -d ${PREFIX}/bin/slimpack OUTPUT_VARIABLE dyn)
  if(dyn MATCHES "libQt6")
    message(FATAL_ERROR "installed slimpack links Qt: ${dyn}")
  endif()
endif()

if(GUI)
  # The icons are real PNGs of their nominal size (PNG header: width and height at bytes 16..23).
  file(READ ${PREFIX}/share/icons/hicolor/48x48/apps/slimpack-explorer.png head LIMIT 24 HEX)
  string(SUBSTRING "${head}" 0 16 magic)
  string(SUBSTRING "${head}" 32 16 dims)
  if(NOT magic STREQUAL "89504e470d0a1a0a" OR NOT dims STREQUAL "0000003000000030")
    message(FATAL_ERROR "48x48 icon is not a 48x48 PNG (header ${head})")
  endif()
  # Without SLIMPACK_DATA_DIR the installed explorer must find the installed data, not the source tree.
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=SLIMPACK_DATA_DIR QT_QPA_PLATFORM=offscreen
                          ${PREFIX}/bin/slimpack-explorer --data-dirs
                  OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  get_filename_component(real_prefix ${PREFIX} REALPATH)
  if(NOT rc EQUAL 0
     OR NOT out MATCHES "samples: ${real_prefix}/share/slimpack-explorer/samples\n"
     OR NOT out MATCHES "docs: ${real_prefix}/share/doc/slimpack-explorer\n")
    message(FATAL_ERROR "installed explorer does not find its data (rc=${rc}):\n${out}")
  endif()
  find_program(VALIDATE desktop-file-validate)
  if(VALIDATE)
    execute_process(COMMAND ${VALIDATE} ${PREFIX}/share/applications/slimpack-explorer.desktop
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "desktop-file-validate: ${out}")
    endif()
  endif()
endif()
message(STATUS "install layout OK under ${PREFIX}")
