// Flash attention forward on Hopper's wgmma (sm_90a PTX), pipelined (flash_sm90_pipe.cuh):
// the default entries.
#include "flash_sm90_pipe.cuh"

using namespace anydnn_flash;

ANYDNN_FLASH_SM90_ENTRY(bf16, 64, _pipe, THREADS, flash_fwd_sm90_pipe<false, 64, 128>)
ANYDNN_FLASH_SM90_ENTRY(bf16, 128, _pipe, THREADS, flash_fwd_sm90_pipe<false, 128, 128>)
ANYDNN_FLASH_SM90_ENTRY(f16, 64, _pipe, THREADS, flash_fwd_sm90_pipe<true, 64, 128>)
ANYDNN_FLASH_SM90_ENTRY(f16, 128, _pipe, THREADS, flash_fwd_sm90_pipe<true, 128, 128>)
