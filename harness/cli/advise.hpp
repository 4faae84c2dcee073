// `ladder plan --advise RESULTS.json` (advise.cpp): how many samples a process and how many
// processes a side a K-process results file's runs call for.
#pragma once
#include "args.hpp"

namespace ladder::cli {

int plan_advise(const Parsed& p);

}  // namespace ladder::cli
