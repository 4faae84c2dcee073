// The harness's vocabulary: a Study owns a problem type, its data and its baseline; a Variant
// is one step of the study's ladder. Registration is declarative (a VariantSpec of plain data
// and two functions) and makes no CUDA calls; all device work happens after main() starts.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../datagen/base/output.hpp"
#include "hd.hpp"  // ceil_div and kFullWarp, which every study's sizes and kernels use
#include "params.hpp"

namespace ladder {

enum class Backend { cpu, gpu };
// baseline: the sequential reference of the ladder; step: one of its optimisations;
// peer: a library (cuBLAS, ...) run as a yardstick.
enum class Role { baseline, step, peer };
// What a variant computes in; each study's tolerance and hardware limit depend on it.
// tf32x3: FP32-accurate products from three TF32 tensor-core products (hi*hi + hi*lo + lo*hi).
// fp16: FP16 tensor-core products of operands scaled by powers of two into FP16's range (the
// same 10-bit mantissa as TF32); fp16x3: three of them per product, as tf32x3.
enum class Precision { fp64, fp32, tf32, tf32x3, fp16, fp16x3, fp16x2, int32 };
enum class Status { passed, incorrect, unsupported, skipped, error };
const char* to_string(Backend b);
const char* to_string(Role r);
const char* to_string(Precision p);
const char* to_string(Status s);

// What the selected CUDA device offers; present == false on machines without one.
struct DeviceCaps {
  bool present = false;
  int index = 0;
  int sm_count = 0;
  int cc_major = 0, cc_minor = 0;        // compute capability (arch-specific code needs it exact)
  int clock_khz = 0;                     // maximum SM clock
  std::string name;                      // the device's name (GeForce parts differ in rates)
  // The virtual architecture of the code this device runs (90: compute_90, from a cubin or
  // JIT-compiled PTX); 0 when unknown. PTX older than the device lacks its newer instructions.
  int code_arch = 0;
  double memory_bytes_per_s = 0;         // DRAM bandwidth: memory clock x bus width x 2
  double host_bytes_per_s = 0;  // the host link, one direction (PCIe generation x width); 0: unknown
  std::size_t smem_per_block_optin = 0;  // dynamic shared memory a block may request
  std::size_t l2_bytes = 0;
  std::size_t global_mem_free = 0;
};

// A study's input data for one parameter point. Studies derive their own problem type.
struct Problem {
  virtual ~Problem() = default;
};

// What the runner may add to one timed call beyond the step's own work (harness/runner.hpp):
// a planted wait inside the timed window (`--plant`, a test of the statistics) and a blocked
// start (`--blocked-start`: the stream held until the whole step is queued).
struct CallExtras {
  double plant_ms = 0;         // > 0: wait this long inside the timed window, after the step
  double hold_timeout_ms = 0;  // > 0: a blocked start, the hold given up after this long
};

// One call's times. With a blocked start `ms` is the device's time once the queue was
// released, and `hold_timed_out` says the hold ended by its timeout instead (the step waited
// for the device inside its own launches): that time is then not the step's alone.
struct CallTimes {
  double ms = 0;
  bool hold_timed_out = false;
};

// One variant bound to one problem, with its inputs already in place (on the device for GPU
// variants). run_ms() covers only the work the step is about: kernels for GPU variants.
// harness/host_instance.hpp and harness/gpu_instance.cuh give the two usual bases.
class Instance {
 public:
  virtual ~Instance() = default;
  virtual void poison() = 0;  // make every output element invalid before a run
  virtual double run_ms() = 0;
  // A call with the runner's extras. The runner asks only for what can_plant() and can_hold()
  // say an instance takes, so one that takes none keeps this default.
  virtual CallTimes call(const CallExtras&) { return {run_ms()}; }
  virtual bool can_plant() const { return false; }
  virtual bool can_hold() const { return false; }
  virtual Output fetch() = 0;
  // Milliseconds of each named stage of the last run (e.g. mean, centre, covariance), for
  // steps whose timed work is a pipeline; empty otherwise.
  virtual std::map<std::string, double> stages_ms() const { return {}; }
  // Facts about how the step ran (shared memory per block, resident blocks per SM, the
  // tile's CGMA...), recorded with the run.
  virtual std::map<std::string, double> facts() const { return {}; }
};

// A parameter a study or variant takes, and the only place its default is written. Configs
// are checked against these before anything runs, so a bad value is an input error rather
// than a failed run; resolve() fills in the defaults.
struct ParamSpec {
  // path: a file name; a relative one in a config is taken relative to the config's folder.
  enum class Kind { integer, real, text, path };
  std::string name;
  std::string default_value;  // used when the config does not set it ("" = none)
  std::string help;
  Kind kind = Kind::integer;
  double min = 1;  // inclusive range for numbers
  double max = 1e18;
  std::vector<std::string> choices;  // allowed values (text), or the compiled set (integer)
  bool generated_only = false;       // a generator's parameter: refused with a data file
};
// Throws InputError naming the parameter when value does not fit spec.
void check_param(const ParamSpec& spec, const std::string& value);

// The bytes one point of a step must move over a link, whatever its schedule: its inputs read
// once, its outputs written once, and any copy its technique must write and read back. A
// floor under the step's real traffic, so the time it takes at the link's bandwidth bounds
// the step's throughput from above (Work::set_limit). Through DRAM, each pass (an array read
// or written once) may find up to the L2's size of its data in the L2 (left there by the run
// or the pass before), so the bound counts the bytes less that much a pass.
struct Traffic {
  enum class Link { dram, host };  // the device's memory, or the link to the host (PCIe)
  double bytes = 0;                // 0: no memory bound claimed
  int passes = 1;                  // the reads and writes the bytes are made of (DRAM)
  std::string unit;                // what the work counts, as the rule prints it: "flops"
  std::string counted;             // what the bytes are: "D read twice, X written and read"
  Link link = Link::dram;
};

class Study;
using Supports = std::function<std::string(const Problem&, const Params&, const DeviceCaps&)>;
using Prepare =
    std::function<std::unique_ptr<Instance>(const Problem&, const Params&, const DeviceCaps&)>;

// What a step needs of the architecture beyond arithmetic (harness/hardware.hpp says what
// each device has, and whether a step without it runs emulated or not at all).
enum class Feature {
  dpx,        // Hopper's DPX instructions: emulated (several instructions each) without them
  wgmma_tma,  // wgmma and TMA as built for sm_90a: unsupported on anything but 9.0
};

struct VariantSpec {
  std::string study;
  std::string name;
  int step = 0;
  std::string label;   // short display name for tables and figures
  std::string change;  // one line: what changed from the step before
  Role role = Role::step;
  Backend backend = Backend::cpu;
  Precision precision = Precision::fp32;
  std::vector<ParamSpec> params;
  std::vector<Feature> needs;
  Supports supports;  // "" when the variant can run this point here, else the reason
  Prepare prepare;
  // What this step must move at a point, where its technique makes that differ from step to
  // step (the study's work() asks it); empty where the study counts the same for every step.
  std::function<Traffic(const Problem&)> traffic;

  std::string id() const { return study + "/" + name; }
};

// Absolute and relative tolerance: |got - want| <= abs + rel * |want|.
struct Tolerance {
  double abs = 0;
  double rel = 0;
  std::string rule;  // how it was chosen, printed and recorded
};

struct InstructionMix;

// One bound on a step's throughput, in the metric's unit: the compute bound of its instruction
// mix, or the memory bound of its traffic.
struct Bound {
  double peak = 0;     // 0 when unknown or not claimed
  std::string name;    // the bound's short name: "TF32 tensor", "DRAM bandwidth"
  std::string rule;    // the arithmetic behind peak, as computed
  std::string reason;  // why a bound that is claimed is unknown here ("": known or not claimed)
  double bytes = 0;    // the memory bound's traffic
  bool known() const { return peak > 0; }
};

// The field's throughput for one run: rate = amount / seconds / scale, in `metric` units.
struct Work {
  std::string metric;  // key in the results' metrics: "gcups", "gflops", "gbps", ...
  std::string unit;    // how it is printed: "GCUPS", "GFLOP/s", "GB/s", ...
  double amount = 0;
  double scale = 1;
  double peak = 0;  // the limit, same unit as the metric: the least bound known; 0 when unknown
  std::string peak_rule;    // the arithmetic behind peak, as computed: both bounds and which binds
  std::string peak_name;    // the binding bound's short name ("FP32", "DRAM bandwidth")
  std::string peak_reason;  // why a limit the study claims is unknown on this device
  Bound compute, memory;    // the two bounds the limit is the least of
  std::string binds;        // "compute" or "memory": which bound is the limit; "" without one

  double rate(double ms) const { return amount > 0 && ms > 0 ? amount / (ms / 1e3) / scale : 0; }
  // The device's limit (harness/hardware.hpp): the least of the compute bound of work of this
  // instruction mix (ladder's hardware table, the device's SMs and maximum SM clock) and the
  // memory bound of its traffic (its bytes over the link's bandwidth). A compute bound unknown
  // on this device leaves the limit unknown; an unknown bandwidth leaves the compute bound
  // alone, and the rule says so.
  void set_limit(const InstructionMix& mix, const Traffic& traffic, const DeviceCaps& d);
  // For work whose instructions the study cannot count (they depend on the data): the memory
  // bound alone; `why` says why no compute bound is claimed.
  void set_limit(const Traffic& traffic, const std::string& why, const DeviceCaps& d);
};

// Where the data of a config comes from.
struct DataSource {
  std::string generator;  // set when generated
  std::string file;       // set when read from a file
};

struct ValidationResult;

// What one point holds in host memory at once, as its study estimates it from the parameters
// (or a data file's size, or the data once read) before anything is built. The harness adds
// what the runner keeps for every study: the output twice (the step's and the fetched copy)
// and the reference values with their indices (harness/memory.hpp).
struct Footprint {
  double inputs = 0;       // bytes of the data as held, with the copies reading or a step makes
  double outputs = 0;      // elements of one output
  double output_word = 4;  // bytes of one output element (the widest any step writes)
  double working = 0;      // bytes the reference needs besides its values (tables, an order)
  // What one output costs the sequential baseline (DP cells, multiply-adds, dominance tests):
  // `--shard` weighs a point by outputs x inner when no measured costs are given.
  double inner = 1;
};

class Study {
 public:
  // `generators` may be empty: such a study reads its data from files only.
  Study(std::string name, std::string summary, std::vector<std::string> generators)
      : name_(std::move(name)), summary_(std::move(summary)), generators_(std::move(generators)) {}
  virtual ~Study() = default;
  const std::string& name() const { return name_; }
  const std::string& summary() const { return summary_; }
  const std::vector<std::string>& generators() const { return generators_; }
  // The figures of this study's paper that plots/draw_all.py draws (a config's `figures` may
  // name these and `ladder`, which every study has).
  virtual std::vector<std::string> figures() const { return {}; }
  // Parameters that shape the data (points that agree on them share one data set).
  virtual std::vector<ParamSpec> data_params() const = 0;
  // Cheap up-front check of one point's data parameters (defaults filled in); `loaded` is the
  // problem already read from the config's data file, when there is one. Throws InputError.
  virtual void check_point(const DataSource& src, const Params& p, const Problem* loaded) const = 0;
  // The point's memory: from the parameters for generated data; for a data file from the
  // file's size before it is read (`loaded` null), then from the data read (`loaded`).
  virtual Footprint footprint(const DataSource& src, const Params& p,
                              const Problem* loaded) const = 0;
  // Builds or loads the data (parameters with defaults filled in); throws InputError.
  virtual std::unique_ptr<Problem> make_problem(const DataSource& src, const Params& p) const = 0;
  virtual void write_data(const Problem& problem, const std::string& path) const = 0;
  // Refuses (InputError), from the parameters alone, data write_data could not write so that
  // it reads back as it was: `ladder gen` asks before anything is built or created.
  virtual void check_writable(const DataSource&, const Params&) const {}
  virtual std::size_t output_size(const Problem& problem) const = 0;
  // The sequential baseline's values at the given flat output indices.
  virtual std::vector<double> reference(const Problem& problem,
                                        const std::vector<std::size_t>& indices) const = 0;
  // Checks an output against the reference values at `indices`. Element-wise within the
  // tolerance by default; a study whose output is not one number per element overrides it.
  virtual ValidationResult compare(const Problem& problem, const Output& got,
                                   const std::vector<std::size_t>& indices,
                                   const std::vector<double>& want, const Tolerance& tol) const;
  virtual Tolerance tolerance(const Problem& problem, const VariantSpec& v) const = 0;
  virtual Work work(const Problem& problem, const VariantSpec& v, const DeviceCaps& d) const = 0;
  // Study-specific facts about the data recorded with each point (sizes, labels...).
  virtual std::map<std::string, double> describe(const Problem& problem) const = 0;
  // End-to-end results derived from a variant's output (e.g. classification accuracy).
  virtual std::map<std::string, double> extras(const Problem&, const Output&) const { return {}; }
  // What --dump-outputs writes for an output: the output itself unless the study's users read
  // another form (skyline: the sorted ids of its 0/1 membership).
  virtual Output dump_form(const Problem&, const Output& out) const { return out; }
  // Awkward data points (sizes 1, primes, off the tile) every GPU step is tested on.
  virtual std::vector<Params> test_points() const = 0;

 private:
  std::string name_, summary_;
  std::vector<std::string> generators_;
};

class Registry {
 public:
  void add_study(std::unique_ptr<Study> s);
  void add_variant(VariantSpec v);
  const Study* study(const std::string& name) const;  // nullptr when unknown
  const std::vector<std::unique_ptr<Study>>& studies() const { return studies_; }
  // By study, step, then name: an order that does not depend on how the program was linked.
  std::vector<const VariantSpec*> variants(const std::string& study = "") const;
  const VariantSpec* variant(const std::string& id) const;

 private:
  std::vector<std::unique_ptr<Study>> studies_;
  std::vector<VariantSpec> variants_;
};

Registry& registry();

// The point as `variant` sees it: the study's data defaults (without the generator's when
// the data come from a file), then the variant's defaults (none when variant is null), then
// the given values. What is recorded is what ran.
Params resolve(const Study& study, const VariantSpec* variant, const Params& given,
               bool generated = true);

// Static registration helpers: `static const ladder::Registrar r{make_spec()};`
struct Registrar {
  explicit Registrar(VariantSpec v) { registry().add_variant(std::move(v)); }
  explicit Registrar(std::unique_ptr<Study> s) { registry().add_study(std::move(s)); }
};

// Safe downcast of a study's problem; a mismatch is a harness bug, reported loudly.
template <class P>
const P& problem_as(const Problem& p) {
  const P* typed = dynamic_cast<const P*>(&p);
  if (!typed) throw std::logic_error("problem type does not match the variant's study");
  return *typed;
}

}  // namespace ladder
