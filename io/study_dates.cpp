// The dates of a study: civil-date arithmetic and the study clock (Study::clockText/clockTime).
#include "io/study_dates.h"

#include <cmath>
#include <cstdio>

#include "io/study.h"

namespace warplab::io {

long long daysFromCivil(int y, int m, int d) {
    y -= m <= 2;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = unsigned((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1);
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

void civilFromDays(long long z, int& y, int& m, int& d) {
    z += 719468;
    const long long era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = unsigned(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = int(doy - (153 * mp + 2) / 5 + 1);
    m = int(mp < 10 ? mp + 3 : mp - 9);
    y = int(yoe + era * 400 + (m <= 2));
}

// "YYYY-MM-DDTHH:MM:SS" -> seconds since 1970 (no zone); false when malformed.
bool isoSeconds(const std::string& iso, double& out) {
    int y, mo, d, h, mi, s;
    if (std::sscanf(iso.c_str(), "%d-%d-%dT%d:%d:%d", &y, &mo, &d, &h, &mi, &s) != 6) return false;
    out = double(daysFromCivil(y, mo, d)) * 86400.0 + h * 3600.0 + mi * 60.0 + s;
    return true;
}

std::string hms(double secondsOfDay, bool millis) {
    const long long ms = std::llround(secondsOfDay * 1000.0);
    const long long s = ms / 1000;
    char buf[48];
    if (millis)
        std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld.%03lld", s / 3600, s / 60 % 60, s % 60, ms % 1000);
    else
        std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

std::string Study::clockText(double secondsFromStudyStart) const {
    if (!originKnown_) return {};
    const double t = originSecondOfDay_ + secondsFromStudyStart;
    const long long ms = std::llround(t * 1000.0);
    long long days = ms / 86400000;
    if (ms < 0 && ms % 86400000 != 0) --days;
    const double sod = double(ms - days * 86400000) / 1000.0;
    if (originHasDate_) {
        int y, m, d;
        civilFromDays(originDayIndex_ + days, y, m, d);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT", y, m, d);
        return buf + hms(sod, true);
    }
    return "+" + std::to_string(days) + "d " + hms(sod, true);
}

std::string Study::clockTime(int recording, double secondsFromRecordingStart) const {
    if (recording < 0 || recording >= int(recordings_.size())) return {};
    return clockText(recordings_[std::size_t(recording)].offsetS + secondsFromRecordingStart);
}

}  // namespace warplab::io
