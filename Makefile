# Porcelain over CMake. `make run` and `make test` install missing Debian/Ubuntu packages when
# run as root (otherwise they print the apt-get command), configure, build, then run.
BUILD   ?= build
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
CONFIG  ?= configs/default.json
RESULTS ?= results/default.json
FIGURES ?= results/figures
V       ?=
SCALE   ?= paper
OUT     ?=
# Profile at the clocks the benchmarks ran at (ncu would otherwise lock them to base).
NCU_FLAGS ?= --set full --clock-control none

.PHONY: all build run test reproduce figures profile deps clean

all: build

deps:
	@scripts/deps.sh build

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# The default experiment: results file, summary table and figures.
run: build
	@scripts/deps.sh plots
	$(BUILD)/ladder run $(CONFIG) --out $(RESULTS)
	python3 -m plots.draw_all $(RESULTS) --out-dir $(FIGURES)

# CPU tests always run; GPU tests (label gpu) report as skipped without a device.
test: build
	@scripts/deps.sh plots
	@scripts/deps.sh schemas
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Every study's paper experiments, the installed peers, every figure and REPORT.md:
# make reproduce [SCALE=paper|quick] [OUT=DIR] [GPUS=all|0,2] [COSTS=DIR]
# (default results/reproduction/<gpu>-<scale>/; GPUS: a shard per GPU, COSTS: earlier run times).
reproduce: build
	@scripts/deps.sh plots
	$(BUILD)/ladder reproduce --scale $(SCALE) $(if $(OUT),--out $(OUT)) $(if $(GPUS),--gpus $(GPUS)) \
	  $(if $(COSTS),--costs $(COSTS))

# The committed references' figures, which are not committed: drawn from each one's results
# files into its figures/ (make figures [REFS="results/reference/h100 ..."], default all of
# them); make figures RESULTS=file.json [FIGURES=DIR] draws one results file's instead.
figures:
	@scripts/deps.sh plots
	$(if $(filter command line,$(origin RESULTS)),python3 -m plots.draw_all $(RESULTS) --out-dir $(FIGURES),python3 scripts/reference_figures.py $(REFS))

# Profile one step, e.g. make profile V=dtw/shared (Nsight Compute if present, else nsys), on
# its study's smoke config or on CONFIG=file.json (e.g. configs/eed/throughput.json).
profile: build
	@test -n "$(V)" || { echo "usage: make profile V=study/variant" >&2; exit 2; }
	@mkdir -p results/profiles
	@study=$$(echo "$(V)" | cut -d/ -f1); name=$$(echo "$(V)" | tr / _); \
	config=$(if $(filter command line,$(origin CONFIG)),$(CONFIG),configs/$$study/smoke.json); \
	if command -v ncu >/dev/null; then \
	  ncu --profile-from-start off $(NCU_FLAGS) -f -o results/profiles/$$name \
	    $(BUILD)/ladder run $$config --profile --filter '^$(V)$$' \
	    --out results/profiles/$$name.json; \
	elif command -v nsys >/dev/null; then \
	  nsys profile --capture-range=cudaProfilerApi -f true -o results/profiles/$$name \
	    $(BUILD)/ladder run $$config --profile --filter '^$(V)$$' \
	    --out results/profiles/$$name.json; \
	else echo "neither ncu nor nsys found (both ship with the CUDA Toolkit)" >&2; exit 1; fi

clean:
	rm -rf $(BUILD)
