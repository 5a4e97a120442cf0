/*
 * A hand-written C parser for the phone-export CSV layout, the yardstick issue #16 item 8 sets
 * `routemiles measure` against:
 *
 *     time,latitude,longitude,accuracy,speed,course,session
 *     2026-03-02T08:15:30.250Z,51.5072178,-0.1275862,8.0,12.34,123.4,1
 *
 * It reads the whole file (read(2) in 1 MiB chunks, as routemiles does), splits each row at
 * commas, parses the ISO 8601 time (date, time, optional fraction, Z or +-HH:MM) with the civil
 * day arithmetic, the five numbers with a strtod-like decimal parser (sign, digits, fraction;
 * exact for up to 15 significant digits), compares the session text with the previous row's,
 * and sums the haversine between consecutive rows of one session. No filter, no time order, no
 * accuracy checks: the least work that reads every byte and measures. Prints rows and metres.
 *
 * Build: cc -O2 -o phone_csv phone_csv.c -lm   (Benchmarks/compare-c.sh does it)
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const double powers[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
                                1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/* strtod for plain decimals: [-+]digits[.digits]. Sets *ok to 0 on anything else. */
static double parse_number(const char *p, const char *end, int *ok) {
    int negative = 0;
    if (p < end && (*p == '-' || *p == '+')) { negative = *p == '-'; p++; }
    long long mantissa = 0;
    int digits = 0, scale = 0, any = 0;
    while (p < end && *p >= '0' && *p <= '9') {
        if (digits < 18) { mantissa = mantissa * 10 + (*p - '0'); digits++; } else scale--;
        p++; any = 1;
    }
    if (p < end && *p == '.') {
        p++;
        while (p < end && *p >= '0' && *p <= '9') {
            if (digits < 18) { mantissa = mantissa * 10 + (*p - '0'); digits++; scale++; }
            p++; any = 1;
        }
    }
    if (!any || p != end || scale < 0 || scale > 15) { *ok = 0; return 0; }
    double value = (double)mantissa / powers[scale];
    return negative ? -value : value;
}

static long days_from_civil(long y, unsigned m, unsigned d) {
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long)doe - 719468;
}

#define DIGIT(c) ((unsigned)((c) - '0') < 10)

/* YYYY-MM-DDTHH:MM:SS[.fff][Z|+-HH:MM] -> seconds since 1970. */
static double parse_time(const char *p, const char *end, int *ok) {
    long n = end - p;
    if (n < 19 || p[4] != '-' || p[7] != '-' || (p[10] != 'T' && p[10] != ' ') || p[13] != ':' || p[16] != ':') {
        *ok = 0; return 0;
    }
    for (int i = 0; i < 19; i++) {
        if (i == 4 || i == 7 || i == 10 || i == 13 || i == 16) continue;
        if (!DIGIT(p[i])) { *ok = 0; return 0; }
    }
    long year = (p[0] - '0') * 1000 + (p[1] - '0') * 100 + (p[2] - '0') * 10 + (p[3] - '0');
    unsigned month = (p[5] - '0') * 10 + (p[6] - '0');
    unsigned day = (p[8] - '0') * 10 + (p[9] - '0');
    int hour = (p[11] - '0') * 10 + (p[12] - '0');
    int minute = (p[14] - '0') * 10 + (p[15] - '0');
    int second = (p[17] - '0') * 10 + (p[18] - '0');
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
        *ok = 0; return 0;
    }
    double seconds = (double)days_from_civil(year, month, day) * 86400.0 + hour * 3600 + minute * 60 + second;
    const char *q = p + 19;
    if (q < end && *q == '.') {
        q++;
        long fraction = 0; int digits = 0;
        while (q < end && DIGIT(*q)) { if (digits < 15) { fraction = fraction * 10 + (*q - '0'); digits++; } q++; }
        seconds += (double)fraction / powers[digits];
    }
    if (q < end && *q == 'Z') q++;
    else if (q + 6 <= end && (*q == '+' || *q == '-') && q[3] == ':') {
        int offset = ((q[1] - '0') * 10 + (q[2] - '0')) * 3600 + ((q[4] - '0') * 10 + (q[5] - '0')) * 60;
        seconds -= *q == '+' ? offset : -offset;
        q += 6;
    }
    if (q != end) { *ok = 0; return 0; }
    return seconds;
}

static double haversine(double lat1, double lon1, double lat2, double lon2) {
    const double r = M_PI / 180;
    double s1 = sin((lat2 - lat1) * r * 0.5), s2 = sin((lon2 - lon1) * r * 0.5);
    double a = s1 * s1 + cos(lat1 * r) * cos(lat2 * r) * s2 * s2;
    if (a > 1) a = 1;
    return 2 * 6371008.8 * asin(sqrt(a));
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: phone_csv FILE.csv\n"); return 64; }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) { perror(argv[1]); return 66; }
    size_t capacity = 1 << 20, held = 0;
    char *buffer = malloc(capacity + 4096);
    long rows = 0, bad = 0;
    int header = 1, havePrevious = 0;
    double total = 0, lastLat = 0, lastLon = 0, lastTime = 0;
    char lastSession[64]; size_t lastSessionLength = 0;
    for (;;) {
        ssize_t got = read(fd, buffer + held, capacity - held);
        if (got < 0) { perror("read"); return 74; }
        size_t available = held + (size_t)got;
        char *p = buffer, *limit = buffer + available;
        for (;;) {
            char *newline = memchr(p, '\n', (size_t)(limit - p));
            if (!newline) {
                if (got > 0) break;
                if (p == limit) break;
                newline = limit; /* last line without a newline */
            }
            char *line_end = newline > p && newline[-1] == '\r' ? newline - 1 : newline;
            if (header) { header = 0; p = newline + 1; continue; }
            const char *field[7]; const char *field_end[7]; int count = 0;
            const char *start = p;
            for (const char *c = p; c <= line_end && count < 7; c++) {
                if (c == line_end || *c == ',') { field[count] = start; field_end[count] = c; count++; start = c + 1; }
            }
            int ok = count == 7;
            double time = ok ? parse_time(field[0], field_end[0], &ok) : 0;
            double lat = ok ? parse_number(field[1], field_end[1], &ok) : 0;
            double lon = ok ? parse_number(field[2], field_end[2], &ok) : 0;
            for (int i = 3; ok && i < 6; i++) {
                if (field[i] != field_end[i]) (void)parse_number(field[i], field_end[i], &ok);
            }
            if (!ok) { bad++; p = newline + 1; if (newline == limit) break; continue; }
            size_t sessionLength = (size_t)(field_end[6] - field[6]);
            if (sessionLength > sizeof lastSession) sessionLength = sizeof lastSession;
            int sameSession = havePrevious && sessionLength == lastSessionLength &&
                              memcmp(field[6], lastSession, sessionLength) == 0;
            if (sameSession && time > lastTime) total += haversine(lastLat, lastLon, lat, lon);
            memcpy(lastSession, field[6], sessionLength); lastSessionLength = sessionLength;
            lastLat = lat; lastLon = lon; lastTime = time; havePrevious = 1;
            rows++;
            p = newline + 1;
            if (newline == limit) break;
        }
        if (got == 0) break;
        held = (size_t)(limit - p);
        memmove(buffer, p, held);
        if (held == capacity) { capacity *= 2; buffer = realloc(buffer, capacity + 4096); }
    }
    close(fd);
    printf("%ld rows, %ld unreadable, %.1f m\n", rows, bad, total);
    free(buffer);
    return 0;
}
