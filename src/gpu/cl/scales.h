// Types of the src and dst scales (the attribute's one value each): f32 unless the host names
// another with data_type_options("SRC_SCALE" / "DST_SCALE", ...) (gpu::scale_type_options).
#ifndef ANYDNN_GPU_CL_SCALES_H
#define ANYDNN_GPU_CL_SCALES_H

#include "cl/common.h"

#ifndef SRC_SCALE_DATA_T
#define SRC_SCALE_DATA_T float
#define LOAD_SRC_SCALE load_f32
#endif
#ifndef DST_SCALE_DATA_T
#define DST_SCALE_DATA_T float
#define LOAD_DST_SCALE load_f32
#endif

#endif
