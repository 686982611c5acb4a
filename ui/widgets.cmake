# slimpack_ui: the Qt Widgets GUI over core snapshots (Gantt view, jobs, panels, item models,
# summary charts, main window). Included from ui/CMakeLists.txt when SLIMPACK_BUILD_GUI is ON.
# Sources are globbed per folder so that each engineer's folder joins the library by existing.
file(GLOB_RECURSE ui_srcs CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/gantt/*.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/jobs/*.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/panels/*.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/models/*.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/charts/*.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/trace/*.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/window/*.cpp)
# Headers with Q_OBJECT must be visible to AUTOMOC: list them next to the sources.
file(GLOB_RECURSE ui_hdrs CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_SOURCE_DIR}/gantt/*.h
  ${CMAKE_CURRENT_SOURCE_DIR}/jobs/*.h
  ${CMAKE_CURRENT_SOURCE_DIR}/panels/*.h
  ${CMAKE_CURRENT_SOURCE_DIR}/models/*.h
  ${CMAKE_CURRENT_SOURCE_DIR}/charts/*.h
  ${CMAKE_CURRENT_SOURCE_DIR}/trace/*.h
  ${CMAKE_CURRENT_SOURCE_DIR}/window/*.h)
add_library(slimpack_ui STATIC ${ui_srcs} ${ui_hdrs})
set_target_properties(slimpack_ui PROPERTIES AUTOMOC ON AUTORCC ON)
target_include_directories(slimpack_ui PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(slimpack_ui
  PUBLIC slimpack_painter slimpack_core Qt6::Widgets Qt6::Charts Qt6::Svg Qt6::PrintSupport
  PRIVATE slimpack_warnings)
target_link_libraries(slimpack_ui PUBLIC slimpack_sanitizers)
# Where ui/window/data_paths.cpp looks for samples and docs (cmake/InstallLayout.cmake).
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/window/data_paths.cpp PROPERTIES
  COMPILE_DEFINITIONS "SLIMPACK_REL_DATA_DIR=\"${SLIMPACK_REL_DATA_DIR}\";SLIMPACK_REL_DOC_DIR=\"${SLIMPACK_REL_DOC_DIR}\";SLIMPACK_SOURCE_TREE=\"${PROJECT_SOURCE_DIR}\"")
