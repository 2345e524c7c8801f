# Hopper's wgmma GEMM and convolution (src/gpu/gemm/hopper/*.cu): compiled to PTX by nvcc where it is found
# and embedded (gpu::ptx_module); without nvcc the table is empty and the implementation
# that needs it says so. Adds to ANYDNN_KERNEL_SOURCES_CPP.
option(ANYDNN_PTX_KERNELS "Build the PTX kernels (needs nvcc)" ON)
if(ANYDNN_PTX_KERNELS)
  find_program(ANYDNN_NVCC NAMES nvcc PATHS /usr/local/cuda/bin)
endif()
set(_anydnn_ptx_cpp ${ANYDNN_GENERATED_SRC_DIR}/gpu_ptx_modules.cpp)
set(_anydnn_ptx_script ${CMAKE_SOURCE_DIR}/scripts/embed_ptx.py)
set(_anydnn_ptx_files)
if(ANYDNN_NVCC)
  # The GEMM's matrix kernels (cp.async and TMA-fed) and the implicit-GEMM convolution share
  # wgmma_core.cuh.
  set(_anydnn_hopper ${CMAKE_SOURCE_DIR}/src/gpu/gemm/hopper)
  foreach(_name wgmma_gemm wgmma_tma wgmma_conv wgmma_conv_halo)
    set(_ptx ${ANYDNN_GENERATED_SRC_DIR}/${_name}.ptx)
    add_custom_command(
      OUTPUT ${_ptx}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${ANYDNN_GENERATED_SRC_DIR}
      COMMAND ${ANYDNN_NVCC} -ptx -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a
              ${_anydnn_hopper}/${_name}.cu -o ${_ptx}
      DEPENDS ${_anydnn_hopper}/${_name}.cu ${_anydnn_hopper}/wgmma_core.cuh
              ${_anydnn_hopper}/wgmma_ops.cuh ${CMAKE_SOURCE_DIR}/src/gpu/cuda/async_ordering.cuh
              ${CMAKE_SOURCE_DIR}/src/gpu/gemm/eltwise.cuh
      COMMENT "Compiling ${_name}.cu to sm_90a PTX")
    list(APPEND _anydnn_ptx_files ${_ptx})
  endforeach()
  # Flash attention (src/gpu/sdpa/cuda): mma.sync and FMA kernels as sm_80 PTX (Ampere and
  # Hopper), the wgmma ones and the FMA kernel past 48 KiB of shared memory as sm_90a.
  foreach(_flash flash_attention:80 flash_attention_f32:80 flash_attention_f32_sm90:90a
                 flash_attention_sm90:90a flash_attention_sm90_pipe:90a)
    string(REPLACE ":" ";" _parts ${_flash})
    list(GET _parts 0 _name)
    list(GET _parts 1 _sm)
    set(_cu ${CMAKE_SOURCE_DIR}/src/gpu/sdpa/cuda/${_name}.cu)
    set(_ptx ${ANYDNN_GENERATED_SRC_DIR}/${_name}.ptx)
    add_custom_command(
      OUTPUT ${_ptx}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${ANYDNN_GENERATED_SRC_DIR}
      COMMAND ${ANYDNN_NVCC} -ptx -O3 -std=c++17 -gencode=arch=compute_${_sm},code=sm_${_sm}
              ${_cu} -o ${_ptx}
      DEPENDS ${_cu} ${CMAKE_SOURCE_DIR}/src/gpu/sdpa/cuda/flash_common.cuh
              ${CMAKE_SOURCE_DIR}/src/gpu/sdpa/cuda/flash_wgmma.cuh
              ${CMAKE_SOURCE_DIR}/src/gpu/sdpa/cuda/flash_f32.cuh
              ${CMAKE_SOURCE_DIR}/src/gpu/sdpa/cuda/flash_sm90_tiles.cuh
              ${CMAKE_SOURCE_DIR}/src/gpu/sdpa/cuda/flash_sm90_pipe.cuh
              ${CMAKE_SOURCE_DIR}/src/gpu/cuda/async_ordering.cuh
      COMMENT "Compiling ${_name}.cu to sm_${_sm} PTX")
    list(APPEND _anydnn_ptx_files ${_ptx})
  endforeach()
  # Strict f32 GEMM on the FMA units (src/gpu/gemm/sgemm): sm_80 PTX (Ampere and later), and
  # from the same source the sm_90a entries whose shared memory passes 48 KiB (Hopper).
  set(_cu ${CMAKE_SOURCE_DIR}/src/gpu/gemm/sgemm/sgemm_f32.cu)
  foreach(_sgemm sgemm_f32:80: sgemm_f32_sm90:90a:-DANYDNN_SGEMM_SM90)
    string(REPLACE ":" ";" _parts "${_sgemm}")
    list(GET _parts 0 _name)
    list(GET _parts 1 _sm)
    list(LENGTH _parts _count)
    set(_define)
    if(_count GREATER 2)
      list(GET _parts 2 _define)
    endif()
    set(_ptx ${ANYDNN_GENERATED_SRC_DIR}/${_name}.ptx)
    add_custom_command(
      OUTPUT ${_ptx}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${ANYDNN_GENERATED_SRC_DIR}
      COMMAND ${ANYDNN_NVCC} -ptx -O3 -std=c++17 ${_define}
              -gencode=arch=compute_${_sm},code=sm_${_sm} ${_cu} -o ${_ptx}
      DEPENDS ${_cu} ${CMAKE_SOURCE_DIR}/src/gpu/gemm/eltwise.cuh
      COMMENT "Compiling sgemm_f32.cu to sm_${_sm} PTX")
    list(APPEND _anydnn_ptx_files ${_ptx})
  endforeach()
  # The persistent LSTM forward (src/gpu/rnn/cuda): sm_90a, whose static shared arrays may pass
  # 48 KiB (one CTA per SM).
  set(_cu ${CMAKE_SOURCE_DIR}/src/gpu/rnn/cuda/lstm_persistent.cu)
  set(_ptx ${ANYDNN_GENERATED_SRC_DIR}/lstm_persistent.ptx)
  add_custom_command(
    OUTPUT ${_ptx}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${ANYDNN_GENERATED_SRC_DIR}
    COMMAND ${ANYDNN_NVCC} -ptx -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a ${_cu}
            -o ${_ptx}
    DEPENDS ${_cu}
    COMMENT "Compiling lstm_persistent.cu to sm_90a PTX")
  list(APPEND _anydnn_ptx_files ${_ptx})
else()
  message(STATUS "nvcc not found (or ANYDNN_PTX_KERNELS=OFF): no wgmma GEMM for Hopper GPUs")
endif()
# Buffers first: the GEMM kernels' seven parameters (A, B, C, bias, three scales), the TMA
# GEMMs' eight (and the tensor maps' workspace), the 8-bit GEMMs' ten (and zero points of src
# and dst, B's column sums), flash attention's nine (Q, K, V, dst, scale, mask, stats, key and
# query lengths), the split-K sums' six, the persistent LSTM's three (workspace, scratchpad,
# recurrent weights).
add_custom_command(
  OUTPUT ${_anydnn_ptx_cpp}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${ANYDNN_GENERATED_SRC_DIR}
  COMMAND ${Python3_EXECUTABLE} ${_anydnn_ptx_script} 7,anydnn_wgmma_tma_*=8,anydnn_wgmma_splitk_reduce=6,anydnn_wgmma_splitk_reduce4=6,anydnn_wgmma_splitk_reduce_s32=6,anydnn_wgmma_s8*=10,anydnn_wgmma_u8*=10,anydnn_flash_sdpa_*=9,anydnn_lstm_fwd_persistent=3 ${_anydnn_ptx_cpp} ${_anydnn_ptx_files}
  DEPENDS ${_anydnn_ptx_files} ${_anydnn_ptx_script}
  COMMENT "Embedding PTX kernels"
  VERBATIM)
list(APPEND ANYDNN_KERNEL_SOURCES_CPP ${_anydnn_ptx_cpp})
