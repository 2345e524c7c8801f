# anydnn_add_smoke_tests(<name> <engine> <environment> [parts...]): one ctest per sub-batch of
# tests/inputs/smoke (its `--batch=<part>/smoke` lines, or only the parts named), named
# <name>.<part>, running benchdnn on engine kind <engine>. Parts run in parallel under `ctest -j` and each has its own
# timeout: a cold OpenCL program cache makes the GPU parts compile every kernel first.
#
# ANYDNN_POCL_QUICK_BUILD_ENV: PoCL builds the kernels without its optimizer. The GPU batches
# are small problems that mostly pay kernel builds (the binary part: 62 s cold, 34 s so), while
# the GPU unit suites build every kernel optimized; kernel caches of their own keep the two
# kinds of binaries apart.
set(ANYDNN_POCL_QUICK_BUILD_ENV
    "POCL_EXTRA_BUILD_FLAGS=-cl-opt-disable;XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/kernels-O0;POCL_CACHE_DIR=${CMAKE_BINARY_DIR}/kernels-O0/pocl")
function(anydnn_add_smoke_tests name engine environment)
  file(STRINGS ${PROJECT_SOURCE_DIR}/tests/inputs/smoke _lines REGEX "^--batch=")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${PROJECT_SOURCE_DIR}/tests/inputs/smoke)
  # GPU parts mostly build kernels on a cold cache: ctest starts them early (tests/CMakeLists.txt
  # says why).
  set(_cost 0)
  if(engine STREQUAL "gpu")
    set(_cost 500)
  endif()
  foreach(_line ${_lines})
    string(REGEX REPLACE "^--batch=([A-Za-z0-9_]+)/smoke.*$" "\\1" _part "${_line}")
    if(ARGN AND NOT _part IN_LIST ARGN)
      continue()
    endif()
    add_test(NAME ${name}.${_part}
             COMMAND benchdnn --engine=${engine} --mode=C
                     --batch=${PROJECT_SOURCE_DIR}/tests/inputs/${_part}/smoke)
    set_tests_properties(${name}.${_part} PROPERTIES
                         ENVIRONMENT "${environment}"
                         TIMEOUT 600 COST ${_cost}
                         SKIP_REGULAR_EXPRESSION "${engine} engine not found")
  endforeach()
endfunction()
