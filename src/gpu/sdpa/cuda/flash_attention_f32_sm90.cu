// The f32 flash attention kernel (flash_f32.cuh) at head sizes 80, 96, 128 and 256, sm_90a PTX
// (the only target whose static shared arrays may pass 48 KiB through NVIDIA's OpenCL): 60, 72,
// 96 and 104 KiB, two CTAs per SM (at 80, three would cap the registers at 168 and spill).
// FMA only, no wgmma.
#include "flash_f32.cuh"

ANYDNN_FLASH_F32_ENTRY(80, 2, false, )
ANYDNN_FLASH_F32_ENTRY(96, 2, false, )
ANYDNN_FLASH_F32_ENTRY(128, 2, false, )
ANYDNN_FLASH_F32_ENTRY(256, 2, false, )
