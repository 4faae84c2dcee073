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

#include "output.hpp"
#include "params.hpp"

namespace ladder {

enum class Backend { cpu, gpu };
enum class Status { passed, incorrect, unsupported, skipped, error };
const char* to_string(Backend b);
const char* to_string(Status s);

// What the selected CUDA device offers; present == false on machines without one.
struct DeviceCaps {
  bool present = false;
  int index = 0;
  int sm_count = 0;
  int clock_khz = 0;                   // maximum SM clock
  std::size_t smem_per_block_optin = 0;  // dynamic shared memory a block may request
  std::size_t global_mem_free = 0;
};

// A study's input data for one parameter point. Studies derive their own problem type.
struct Problem {
  virtual ~Problem() = default;
};

// One variant bound to one problem, with its inputs already in place (on the device for GPU
// variants). run_ms() covers only the work the step is about: kernels for GPU variants.
class Instance {
 public:
  virtual ~Instance() = default;
  virtual void poison() = 0;  // make every output element invalid before a run
  virtual double run_ms() = 0;
  virtual Output fetch() = 0;
  // Milliseconds of each named stage of the last run (e.g. mean, centre, covariance), for
  // steps whose timed work is a pipeline; empty otherwise.
  virtual std::map<std::string, double> stages_ms() const { return {}; }
  // Facts about how the step ran (shared memory per block, resident blocks per SM, the
  // tile's CGMA...), recorded with the run.
  virtual std::map<std::string, double> facts() const { return {}; }
};

// A parameter a study or variant takes. Configs are checked against these before anything
// runs, so a bad value is an input error rather than a failed run.
struct ParamSpec {
  enum class Kind { integer, real, text };
  std::string name;
  std::string fallback;  // value used when the config does not set it ("" = required)
  std::string help;
  Kind kind = Kind::integer;
  double min = 1;  // inclusive range for numbers
  double max = 1e18;
  std::vector<std::string> choices;  // allowed values for text
};
// Throws InputError naming the parameter when value does not fit spec.
void check_param(const ParamSpec& spec, const std::string& value);

struct VariantSpec {
  std::string study;
  std::string name;
  int step = 0;
  std::string change;  // one line: what changed from the step before
  Backend backend = Backend::cpu;
  std::string precision = "fp32";
  std::vector<ParamSpec> params;
  // "" when the variant can run this point here, otherwise the reason it cannot.
  std::function<std::string(const Problem&, const Params&, const DeviceCaps&)> supports;
  std::function<std::unique_ptr<Instance>(const Problem&, const Params&)> prepare;

  std::string id() const { return study + "/" + name; }
};

// Absolute and relative tolerance: |got - want| <= abs + rel * |want|.
struct Tolerance {
  double abs = 0;
  double rel = 0;
  std::string rule;  // how it was chosen, printed and recorded
};

// The field's throughput for one run: value = amount / seconds / scale, in `metric` units.
struct Work {
  std::string metric;  // "gcups", "gflops", "gbps", "points_per_s"
  double amount = 0;
  double scale = 1;
  double peak = 0;  // same unit as the metric; 0 when unknown
  std::string peak_rule;
};

// Where the data of a config comes from.
struct DataSource {
  std::string generator;  // set when generated
  std::string file;       // set when read from a file
};

class Study {
 public:
  virtual ~Study() = default;
  virtual std::string name() const = 0;
  virtual std::string summary() const = 0;
  // Parameters that shape the data (points that agree on them share one data set).
  virtual std::vector<ParamSpec> data_params() const = 0;
  virtual std::vector<std::string> generators() const = 0;
  // Cheap up-front check of one point's data parameters; throws InputError on bad input.
  virtual void check_point(const DataSource& src, const Params& p) const = 0;
  // Builds or loads the data; throws InputError on bad input.
  virtual std::unique_ptr<Problem> make_problem(const DataSource& src, const Params& p) const = 0;
  virtual void write_data(const Problem& problem, const std::string& path) const = 0;
  virtual std::size_t output_size(const Problem& problem) const = 0;
  // The sequential baseline's values at the given flat output indices.
  virtual std::vector<double> reference(const Problem& problem,
                                        const std::vector<std::size_t>& indices) const = 0;
  virtual Tolerance tolerance(const Problem& problem, const VariantSpec& v) const = 0;
  virtual Work work(const Problem& problem, const VariantSpec& v, const DeviceCaps& d) const = 0;
  // Study-specific facts about the data recorded with each point (sizes, labels...).
  virtual std::map<std::string, double> describe(const Problem& problem) const = 0;
  // End-to-end results derived from a variant's output (e.g. classification accuracy).
  virtual std::map<std::string, double> extras(const Problem&, const Output&) const { return {}; }
};

class Registry {
 public:
  void add_study(std::unique_ptr<Study> s);
  void add_variant(VariantSpec v);
  const Study* study(const std::string& name) const;  // nullptr when unknown
  const std::vector<std::unique_ptr<Study>>& studies() const { return studies_; }
  std::vector<const VariantSpec*> variants(const std::string& study = "") const;  // by step
  const VariantSpec* variant(const std::string& id) const;

 private:
  std::vector<std::unique_ptr<Study>> studies_;
  std::vector<VariantSpec> variants_;
};

Registry& registry();

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
