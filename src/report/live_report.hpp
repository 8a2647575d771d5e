// What `routetune serve` answers: the report page of some stores, read afresh each time.
#pragma once

#include <string>
#include <vector>

#include "store/store_location.hpp"

namespace routetune {

/// The HTML report of stores as they are now, for a live view that polls ./state every
/// poll_s seconds; throws what load_study_summary throws.
std::string live_page(const std::vector<StoreLocation>& stores, int poll_s);

/// {"state": token} for stores as they are now (the token changes whenever an evaluation,
/// a confirmation or an outcome is recorded), plus per store its evaluation count.
std::string live_state(const std::vector<StoreLocation>& stores);

}  // namespace routetune
