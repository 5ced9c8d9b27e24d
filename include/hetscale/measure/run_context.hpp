#pragma once
// What every run record's context says about where and when it ran.
#include <string>

namespace hetscale::measure {

std::string host_name();
// The current time in UTC, ISO 8601 ("2026-11-22T03:30:00Z").
std::string utc_now();

}  // namespace hetscale::measure
