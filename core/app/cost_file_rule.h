#pragma once
// One rule for an option the user gave and a --costs file that sets the same thing
// (docs/cost-model.md, "Options against a --costs file"), for every command and the explorer:
//
//  - the given option wins: the file's field is not applied, and the front end says so once, in
//    one line: "--tp 2 overrides parallel.tp = 1 of samples/models/tiny-8x256.json";
//  - where the two cannot both hold, the run is refused (exit 2), naming the option, the field and
//    the file: --model / --gpu against a file that names another model / GPU (its fields describe
//    that one), --pp against the file's parallel.stage_layers of another length.
//
// An option not given takes the file's value (that is what the file is for); a field the option
// sets to the same value is not reported.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/scenario.h"
#include "common/status.h"
#include "cost/cost_json.h"

namespace slimpack {

struct CostFileOverride {
  std::string flag;        // the option, without dashes: "tp"
  std::string value;       // its value as the CLI spells it: "2"
  std::string field;       // the file's field: "parallel.tp"
  std::string file_value;  // the field's value in the file: "1"
  std::string file;        // the --costs file
};

// "--tp 2 overrides parallel.tp = 1 of samples/models/tiny-8x256.json"
std::string override_line(const CostFileOverride& o);

// The options a --costs file can also set ("pp", "tp", "stage-layers", ...), in the option
// table's order; search marks the ones it varies as given.
const std::vector<std::string>& cost_file_options();

// Every field of config.cost_overrides_file that an option of config.given_options replaces with
// another value; an error (bad input) where they contradict; nothing without a file. The options in
// `varied` (what a sweep or a search varies) count as given and are reported whenever the file
// sets them.
Expected<std::vector<CostFileOverride>> cost_file_overrides(
    const ConfigSpec& config, const std::vector<std::string>& varied = {});

// Applies config.cost_overrides_file to `setup` without the fields the given options replace (the
// setup already holds the options' values); all or nothing; errors name the file. The fields of
// `fixed_by_plan` ("parallel.pp") are also left out: a plan file fixes them.
Status apply_cost_file(const ConfigSpec& config, CostSetup& setup,
                       const std::vector<std::string>& fixed_by_plan = {});

// The configuration with the file's values for the options it sets (pp, tp, the split, the caps;
// its model and GPU when it names a preset), those options then given: what a front end that
// shows every value (the explorer's panel) takes when the file is chosen, so that it shows what
// runs and a later edit wins over the file.
Expected<ConfigSpec> adopt_cost_file(const ConfigSpec& config);

}  // namespace slimpack
