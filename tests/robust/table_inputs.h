// The mutation inputs of a fuzz/targets.def row, as the robustness test reads them: the row's
// sources that are not seeds only ('+', "seed:"), each read or made here. GL-free.
#pragma once

#include "entry_points.h"

#include <cstdint>
#include <string>
#include <vector>

namespace robust {

struct TableInput {
    std::string name; // the source as the table writes it
    std::vector<uint8_t> bytes;
    std::string error; // why it could not be read or made (bytes empty)
};

// Every mutation input of `target`, in the table's order.
std::vector<TableInput> tableInputs(const fuzz::Target& target);

// The inputs the table names "test:NAME", made in code (tests/support builders and texts);
// empty when no such input exists.
std::vector<uint8_t> madeInput(const std::string& name);

} // namespace robust
