#pragma once
// Where and when something ran: this machine's name and the time in UTC, for
// the context blocks of records and the "made on" line of reports.
#include <string>

namespace hetscale::io {

// ISO 8601 in UTC: "2026-11-22T03:30:00Z" (the records' "date").
inline constexpr const char* iso_8601_utc = "%Y-%m-%dT%H:%M:%SZ";

std::string host_name();
// The processors online on this machine (at least 1).
int cores_online();
// The current time in UTC, formatted by std::strftime's `format` (at most 31 characters).
std::string utc_now(const char* format = iso_8601_utc);
// The current time as Unix seconds (the job log's start and end times).
double unix_seconds_now();

}  // namespace hetscale::io
