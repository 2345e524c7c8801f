// Candidates of the pipelined wgmma flash kernel (flash_sm90_pipe.cuh), a module of their own
// (the driver compiles a whole module when it loads one entry: the default's stays small).
// flash.cpp takes them where ANYDNN_SDPA_FLASH_WGMMA asks: =pipen copies K and V through
// load_swizzled_lean; =pipell also copies them after the wgmma issue; =pipelle also sends
// 3 of 16 chunks of exponentials (4, 9, 14) to the FMA units.
#include "flash_sm90_pipe.cuh"

using namespace anydnn_flash;

// One candidate's entries (bf16, f16; head sizes 64, 128; two K, V stages) by its template
// arguments LATE, LEAN, EMU.
#define ANYDNN_FLASH_TRY(SUFFIX, LATE, LEAN, EMU) \
    ANYDNN_FLASH_SM90_ENTRY(bf16, 64, SUFFIX, THREADS, \
            flash_fwd_sm90_pipe<false, 64, 128, 2, LATE, LEAN, EMU>) \
    ANYDNN_FLASH_SM90_ENTRY(bf16, 128, SUFFIX, THREADS, \
            flash_fwd_sm90_pipe<false, 128, 128, 2, LATE, LEAN, EMU>) \
    ANYDNN_FLASH_SM90_ENTRY(f16, 64, SUFFIX, THREADS, \
            flash_fwd_sm90_pipe<true, 64, 128, 2, LATE, LEAN, EMU>) \
    ANYDNN_FLASH_SM90_ENTRY(f16, 128, SUFFIX, THREADS, \
            flash_fwd_sm90_pipe<true, 128, 128, 2, LATE, LEAN, EMU>)

ANYDNN_FLASH_TRY(_pipen, false, true, 0)
ANYDNN_FLASH_TRY(_pipell, true, true, 0)
ANYDNN_FLASH_TRY(_pipelle, true, true, 5)
