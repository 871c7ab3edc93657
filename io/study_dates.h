// Civil dates and clock text for a study's time line (internal to io/study_*.cpp): headers
// give dates and times without a zone, a summary gives clock times only.
#pragma once
#include <string>

namespace warplab::io {

// Days since 1970-01-01 of a civil date (proleptic Gregorian), and back.
long long daysFromCivil(int y, int m, int d);
void civilFromDays(long long z, int& y, int& m, int& d);

// "YYYY-MM-DDTHH:MM:SS" -> seconds since 1970 (no zone); false when malformed.
bool isoSeconds(const std::string& iso, double& out);

// Seconds of a day as "HH:MM:SS", or "HH:MM:SS.mmm" with `millis`.
std::string hms(double secondsOfDay, bool millis);

}  // namespace warplab::io
