# Generates dnnl_format_tag_t at build time from scripts/format_tags/. Uses (and defaults if
# unset) ANYDNN_GENERATED_INCLUDE_DIR (${CMAKE_BINARY_DIR}/include: gets
# oneapi/dnnl/dnnl_format_tags.h and dnnl_format_tags_cpp.inc) and ANYDNN_GENERATED_SRC_DIR
# (${CMAKE_BINARY_DIR}/src/generated: gets format_tag_names.inc); sets ANYDNN_FORMAT_TAG_OUTPUTS
# and defines the target anydnn_format_tags that consumers add_dependencies() on.

find_package(Python3 COMPONENTS Interpreter REQUIRED)

if(NOT ANYDNN_GENERATED_INCLUDE_DIR)
  set(ANYDNN_GENERATED_INCLUDE_DIR ${CMAKE_BINARY_DIR}/include)
endif()
if(NOT ANYDNN_GENERATED_SRC_DIR)
  set(ANYDNN_GENERATED_SRC_DIR ${CMAKE_BINARY_DIR}/src/generated)
endif()

get_filename_component(_anydnn_ft_root ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(_anydnn_ft_script ${_anydnn_ft_root}/scripts/gen_format_tags.py)
set(_anydnn_ft_inputs ${_anydnn_ft_root}/scripts/format_tags)

set(ANYDNN_FORMAT_TAG_OUTPUTS
    ${ANYDNN_GENERATED_INCLUDE_DIR}/oneapi/dnnl/dnnl_format_tags.h
    ${ANYDNN_GENERATED_INCLUDE_DIR}/oneapi/dnnl/dnnl_format_tags_cpp.inc
    ${ANYDNN_GENERATED_SRC_DIR}/format_tag_names.inc)

add_custom_command(
  OUTPUT ${ANYDNN_FORMAT_TAG_OUTPUTS}
  COMMAND ${Python3_EXECUTABLE} ${_anydnn_ft_script}
          --input-dir ${_anydnn_ft_inputs}
          --include-dir ${ANYDNN_GENERATED_INCLUDE_DIR}
          --src-dir ${ANYDNN_GENERATED_SRC_DIR}
  DEPENDS ${_anydnn_ft_script}
          ${_anydnn_ft_inputs}/canonical.txt
          ${_anydnn_ft_inputs}/aliases.txt
          ${_anydnn_ft_inputs}/logical_orders.txt
          ${_anydnn_ft_inputs}/alias_exceptions.txt
  COMMENT "Generating format tags"
  VERBATIM)

add_custom_target(anydnn_format_tags DEPENDS ${ANYDNN_FORMAT_TAG_OUTPUTS})
