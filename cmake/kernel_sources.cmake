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

# SPIR-V for Level Zero of the programs with fixed build options (src/gpu/spirv_programs.txt),
# compiled by clang-15 + llvm-spirv-15 (Debian packages); without them the table is empty and
# Level Zero builds every program from OpenCL C source. Adds to ANYDNN_KERNEL_SOURCES_CPP.
find_program(ANYDNN_SPIRV_CLANG NAMES clang-15)
find_program(ANYDNN_LLVM_SPIRV NAMES llvm-spirv-15)
if(NOT ANYDNN_SPIRV_CLANG OR NOT ANYDNN_LLVM_SPIRV)
  message(WARNING "clang-15 or llvm-spirv-15 not found: Level Zero modules are built from OpenCL C source only")
endif()
set(_anydnn_spirv_cpp ${ANYDNN_GENERATED_SRC_DIR}/gpu_kernel_spirv.cpp)
add_custom_command(
  OUTPUT ${_anydnn_spirv_cpp}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${ANYDNN_GENERATED_SRC_DIR}
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/build_spirv.py
          ${CMAKE_SOURCE_DIR}/src/gpu ${CMAKE_SOURCE_DIR}/src/gpu/spirv_programs.txt
          ${_anydnn_spirv_cpp} "${ANYDNN_SPIRV_CLANG}" "${ANYDNN_LLVM_SPIRV}"
  DEPENDS ${_anydnn_cl_inputs} ${CMAKE_SOURCE_DIR}/src/gpu/spirv_programs.txt
          ${CMAKE_SOURCE_DIR}/scripts/build_spirv.py ${CMAKE_SOURCE_DIR}/scripts/embed_cl.py
  COMMENT "Compiling fixed OpenCL C programs to SPIR-V")
list(APPEND ANYDNN_KERNEL_SOURCES_CPP ${_anydnn_spirv_cpp})
