// The f32 flash attention kernel (flash_f32.cuh) at head sizes 96 and 128, sm_90a PTX (the
// only target whose static shared arrays may pass 48 KiB through NVIDIA's OpenCL): 72 and
// 96 KiB, two CTAs per SM. FMA only, no wgmma.
#include "flash_f32.cuh"

ANYDNN_FLASH_F32_ENTRY(96, 2, false, )
ANYDNN_FLASH_F32_ENTRY(128, 2, false, )
