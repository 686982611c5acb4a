# The Debian package (scripts/package.sh runs `cpack -G DEB`): dist/slimpack-explorer_<version>_<arch>.deb.
# Its Depends are computed by dpkg-shlibdeps from the installed binaries, not written by hand.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME slimpack-explorer)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "SlimPack Explorer developers")
set(CPACK_PACKAGE_CONTACT "SlimPack Explorer developers <slimpack-explorer@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "explore sliced, asymmetric pipeline-parallel schedules for LLM training")
set(CPACK_PACKAGE_DESCRIPTION
    "SlimPack Explorer shows how variable-length LLM training batches become pipeline-parallel
schedules and how to make them fast. It cuts sequences into slices, packs them into balanced
MicroPacks, builds different MicroPacks for forward and backward (asymmetric partitioning,
SlimPack, arXiv 2509.26246) and checks every plan with a DAG simulator of the pipeline.
.
This package holds the command-line tool slimpack (simulate, solve, compare, sweep, fit-costs,
trace), the Qt 6 desktop explorer slimpack-explorer, sample inputs and the documentation.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Icons and the desktop entry: let the desktop refresh its caches if it has the tools.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "hicolor-icon-theme")
# slimpack-run (the PyTorch runtime) is a Python program, so python3 is a dependency (CPack appends
# the shlibdeps of the binaries). PyTorch 2.x is not in Debian 12 (its python3-torch is 1.13):
# /usr/share/slimpack-explorer/runtime-env.sh installs the pinned one from PyPI into a virtual
# environment, hence python3-venv is suggested; slimpack and the explorer need neither, and
# slimpack-run without a supported PyTorch names that script.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-venv")
set(CPACK_STRIP_FILES ON)
set(CPACK_OUTPUT_FILE_PREFIX ${PROJECT_SOURCE_DIR}/dist)
include(CPack)
