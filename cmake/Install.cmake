# Install rules: programs in bin/, the desktop entry and icons for the desktop, samples and docs for
# the explorer and the reader, and generated man pages. `cmake --install build --prefix DIR` or the
# Debian package (cmake/Packaging.cmake) use them.
install(TARGETS slimpack RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET slimpack-explorer)
  install(TARGETS slimpack-explorer RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/resources/slimpack-explorer.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/slimpack-explorer.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  install(DIRECTORY ${PROJECT_BINARY_DIR}/icons/hicolor DESTINATION ${CMAKE_INSTALL_DATADIR}/icons)
  configure_file(${PROJECT_SOURCE_DIR}/resources/slimpack-explorer.1.in
                 ${PROJECT_BINARY_DIR}/man/slimpack-explorer.1 @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/man/slimpack-explorer.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
if(TARGET slimpack-pictures)
  # Run by `slimpack` for a picture (app/cli/CMakeLists.txt): a private program, not on PATH.
  install(TARGETS slimpack-pictures RUNTIME DESTINATION ${SLIMPACK_MODULE_INSTALL_DIR})
endif()
if(TARGET slimpack_milp_cbc)
  install(TARGETS slimpack_milp_cbc LIBRARY DESTINATION ${SLIMPACK_MODULE_INSTALL_DIR})
endif()
if(TARGET slimpack-profile)
  install(TARGETS slimpack-profile RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# slimpack(1) from the program's own --help (cmake/GenerateManPage.cmake), rebuilt with the program.
set(slimpack_man ${PROJECT_BINARY_DIR}/man/slimpack.1)
add_custom_command(OUTPUT ${slimpack_man}
  COMMAND ${CMAKE_COMMAND} -DSLIMPACK=$<TARGET_FILE:slimpack> -DVERSION=${PROJECT_VERSION}
          -DOUT=${slimpack_man} -DDATA_DIR=${SLIMPACK_FULL_DATA_DIR} -DDOC_DIR=${SLIMPACK_FULL_DOC_DIR}
          -P ${PROJECT_SOURCE_DIR}/cmake/GenerateManPage.cmake
  DEPENDS slimpack ${PROJECT_SOURCE_DIR}/cmake/GenerateManPage.cmake
  COMMENT "Generating the slimpack(1) man page from slimpack --help" VERBATIM)
add_custom_target(slimpack_man_page ALL DEPENDS ${slimpack_man})
install(FILES ${slimpack_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/samples/ DESTINATION ${SLIMPACK_DATA_INSTALL_DIR}/samples)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${SLIMPACK_DOC_INSTALL_DIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${SLIMPACK_DOC_INSTALL_DIR})
