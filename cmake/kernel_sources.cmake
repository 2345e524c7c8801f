# Embeds the OpenCL C kernels (src/gpu/**/*.cl and the headers they include) into the
# library: sets ANYDNN_KERNEL_SOURCES_CPP, the generated table behind gpu::kernel_source.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
file(GLOB_RECURSE _anydnn_cl_inputs CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/src/gpu/*.cl ${CMAKE_SOURCE_DIR}/src/gpu/*.h)
set(ANYDNN_KERNEL_SOURCES_CPP ${ANYDNN_GENERATED_SRC_DIR}/gpu_kernel_sources.cpp)
add_custom_command(
  OUTPUT ${ANYDNN_KERNEL_SOURCES_CPP}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${ANYDNN_GENERATED_SRC_DIR}
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/embed_cl.py
          ${CMAKE_SOURCE_DIR}/src/gpu ${ANYDNN_KERNEL_SOURCES_CPP}
  DEPENDS ${_anydnn_cl_inputs} ${CMAKE_SOURCE_DIR}/scripts/embed_cl.py
  COMMENT "Embedding OpenCL kernel sources")
