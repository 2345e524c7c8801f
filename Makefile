# Entry points: `make demo` and `make test` set up a fresh Debian 12 machine (as root),
# build into build/ and run. Everything else is CMake.
JOBS ?= $(shell nproc)
DEBIAN_PACKAGES := cmake g++ make python3 python3-venv libgtest-dev pkg-config \
  opencl-c-headers ocl-icd-libopencl1 ocl-icd-opencl-dev pocl-opencl-icd \
  libze1 libze-dev clang-15 llvm-spirv-15 libxxhash-dev nlohmann-json3-dev libomp-15-dev
BUILD_TYPE ?= Release

.PHONY: all setup intel-ocl intel-sycl build build-asan build-tsan demo test test-asan test-release \
  test-tsan fuzz install clean

all: build

setup:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing missing Debian packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# Intel's CPU OpenCL runtime from PyPI (a second OpenCL implementation, with Intel USM,
# SPIR-V and subgroups) where PyPI is reachable; the tests use it when it is there.
INTEL_OCL := .deps/intel-ocl
intel-ocl: setup
	@if [ ! -e $(INTEL_OCL)/lib/libintelocl.so ]; then \
	  (python3 -m venv $(INTEL_OCL) && \
	   $(INTEL_OCL)/bin/pip install -q intel-opencl-rt intel-cmplr-lib-rt) \
	  || echo "Intel's OpenCL runtime not installed (no PyPI?): its tests are skipped"; \
	fi

# Intel's SYCL runtime from PyPI (headers and libsycl, pinned: the wheel's layout changes
# between releases) where PyPI is reachable; the SYCL interop layer and its tests are built
# when it is there. Host code only: it runs on Intel's CPU OpenCL runtime above.
INTEL_SYCL := .deps/intel-sycl
INTEL_SYCL_VERSION := 2026.2.0
intel-sycl: setup
	@if [ ! -e $(INTEL_SYCL)/include/sycl/sycl.hpp ]; then \
	  (python3 -m venv $(INTEL_SYCL) && \
	   $(INTEL_SYCL)/bin/pip install -q intel-sycl-rt==$(INTEL_SYCL_VERSION)) \
	  || echo "Intel's SYCL runtime not installed (no PyPI?): SYCL interop is not built"; \
	fi

build: intel-ocl intel-sycl
	cmake -S . -B build -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
	cmake --build build -j $(JOBS)

# ASan + UBSan with clang-15: the same objects also carry libFuzzer's coverage hooks, so the
# fuzz targets (tests/fuzz) need no build of their own (libomp-15-dev: clang's OpenMP).
# No PTX kernels: nvcc's minutes (where it is installed) buy nothing without an NVIDIA GPU.
# Line tables only: the sanitizers' reports keep file and line, and the build (CI compiles it
# on 2 cores) is a fifth quicker than with full debug information.
build-asan: intel-ocl intel-sycl
	CC=clang-15 CXX=clang++-15 cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O1 -gline-tables-only' -DANYDNN_SANITIZE=ON -DANYDNN_BUILD_TOOLS=OFF \
	  -DANYDNN_PTX_KERNELS=OFF
	cmake --build build-asan -j $(JOBS)

# ThreadSanitizer: the library and the concurrency stress test only. OpenMP is left out of the
# picture by running with OMP_NUM_THREADS=1 (an uninstrumented libgomp would report its own
# barriers as races); the stress test's threads are the application's.
build-tsan: intel-ocl
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O1 -g' \
	  -DANYDNN_TSAN=ON -DANYDNN_BUILD_TOOLS=OFF -DANYDNN_ENABLE_SYCL=OFF -DANYDNN_PTX_KERNELS=OFF
	cmake --build build-tsan -j $(JOBS) --target anydnn_concurrency_stress

# The SYCL demo runs on Intel's CPU OpenCL runtime above, the one OpenCL implementation
# SYCL is shown (an empty vendor directory keeps PoCL out).
SYCL_RUN_ENV := OCL_ICD_FILENAMES=$(CURDIR)/$(INTEL_OCL)/lib/libintelocl.so \
  OCL_ICD_VENDORS=$(CURDIR)/build/no_icd_vendors LD_LIBRARY_PATH=$(CURDIR)/$(INTEL_OCL)/lib \
  ONEAPI_DEVICE_SELECTOR=opencl:cpu

demo: build
	./build/examples/demo
	if [ -x build/examples/ocl_interop_demo ]; then ./build/examples/ocl_interop_demo; fi
	if [ -x build/examples/sycl_interop_demo ]; then $(SYCL_RUN_ENV) ./build/examples/sycl_interop_demo; fi

test-release: build
	cd build && ctest --output-on-failure -j $(JOBS)

test-asan: build-asan
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

test: test-release test-asan

test-tsan: build-tsan
	cd build-tsan && OMP_NUM_THREADS=1 TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/tests/concurrency/tsan.supp" \
	  ctest --output-on-failure -R '^concurrency\.' -j 1

# Every fuzz target for FUZZ_SECONDS each, two at a time, corpora in build-asan/tests/fuzz.
FUZZ_SECONDS ?= 600
fuzz: build-asan
	tests/fuzz/run_all.sh build-asan $(FUZZ_SECONDS)

install: build
	cmake --install build

clean:
	rm -rf build build-asan build-tsan
