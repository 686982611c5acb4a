# Where things go when installed (GNUInstallDirs), decided before the targets so that the explorer can
# be told where to find its data relative to its own executable (ui/window/data_paths.cpp).
include(GNUInstallDirs)
set(SLIMPACK_DATA_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/slimpack-explorer)
# Debian's place for a package's docs: share/doc/<package>, not GNUInstallDirs' share/doc/<project>.
set(SLIMPACK_DOC_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/doc/slimpack-explorer)
set(SLIMPACK_FULL_DATA_DIR ${CMAKE_INSTALL_PREFIX}/${SLIMPACK_DATA_INSTALL_DIR})
set(SLIMPACK_FULL_DOC_DIR ${CMAKE_INSTALL_PREFIX}/${SLIMPACK_DOC_INSTALL_DIR})
# Relative to bin/, so a package relocated to another prefix still finds its data.
file(RELATIVE_PATH SLIMPACK_REL_DATA_DIR ${CMAKE_INSTALL_FULL_BINDIR}
     ${CMAKE_INSTALL_PREFIX}/${SLIMPACK_DATA_INSTALL_DIR})
file(RELATIVE_PATH SLIMPACK_REL_DOC_DIR ${CMAKE_INSTALL_FULL_BINDIR}
     ${CMAKE_INSTALL_PREFIX}/${SLIMPACK_DOC_INSTALL_DIR})
# The MILP solver's CBC module (core/CMakeLists.txt): a private library of the programs, loaded on
# the first MILP solve from this directory relative to bin/ (and built into the same relative place
# under the build directory).
set(SLIMPACK_MODULE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/slimpack-explorer)
file(RELATIVE_PATH SLIMPACK_REL_MODULE_DIR ${CMAKE_INSTALL_FULL_BINDIR}
     ${CMAKE_INSTALL_PREFIX}/${SLIMPACK_MODULE_INSTALL_DIR})
