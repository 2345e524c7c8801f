# Installs headers, the library, a CMake package (find_package(dnnl) -> DNNL::dnnl)
# and a pkg-config file, laid out as oneDNN's are.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(anydnn PROPERTIES EXPORT_NAME dnnl)
install(TARGETS anydnn EXPORT dnnlTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
install(DIRECTORY ${ANYDNN_GENERATED_INCLUDE_DIR}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# Programs built for oneDNN link -ldnnl: give them that name too.
install(CODE "execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink
  libanydnn.so \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/libdnnl.so)")

set(ANYDNN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dnnl)
install(EXPORT dnnlTargets NAMESPACE DNNL:: DESTINATION ${ANYDNN_CMAKE_DIR})
configure_package_config_file(cmake/dnnlConfig.cmake.in
  ${CMAKE_BINARY_DIR}/dnnlConfig.cmake INSTALL_DESTINATION ${ANYDNN_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/dnnlConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/dnnlConfig.cmake ${CMAKE_BINARY_DIR}/dnnlConfigVersion.cmake
        DESTINATION ${ANYDNN_CMAKE_DIR})

configure_file(cmake/dnnl.pc.in ${CMAKE_BINARY_DIR}/dnnl.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/dnnl.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
