// The f32 flash attention kernel (flash_f32.cuh) at head size 64, sm_80 PTX: 48 KiB of shared
// memory, three CTAs per SM; _pf fetches K and V through registers during the compute (two
// CTAs per SM: its registers).
#include "flash_f32.cuh"

ANYDNN_FLASH_F32_ENTRY(64, 3, false, )
ANYDNN_FLASH_F32_ENTRY(64, 2, true, _pf)
