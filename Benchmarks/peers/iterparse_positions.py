#!/usr/bin/env python3
"""The Python yardstick for TCX, KML and GPX: xml.etree.ElementTree.iterparse plus a loop that
reads the same positions routemiles reads (time text, latitude and longitude as floats) and sums
the haversine between consecutive positions of one track (no filter, no time rule). It is the
least a Python script can do to read every position; routemiles does more (parses the times,
filters, measures the floor).

    python3 Benchmarks/peers/iterparse_positions.py FILE.tcx|FILE.kml|FILE.gpx

Prints "points=N meters=M" (the metres across every gap, so larger than routemiles' figure).
"""
import math
import sys
import xml.etree.ElementTree as ET

R = 6371008.8


TIME, LATITUDE, LONGITUDE, TCX_POINT, GPX_POINT, COORD, TRACK = range(7)
CODES = {"Time": TIME, "time": TIME, "when": TIME, "LatitudeDegrees": LATITUDE,
         "LongitudeDegrees": LONGITUDE, "Trackpoint": TCX_POINT, "trkpt": GPX_POINT,
         "coord": COORD, "Track": TRACK, "trkseg": TRACK}


def positions(path):
    """Yields (track ordinal, time text, latitude, longitude) in document order, from "end"
    events only, each element's tag looked up once in a dictionary (its namespace included) and
    every finished point or value cleared, so memory stays flat."""
    codes = {}
    track = 0
    time = lat = lon = None
    for _event, elem in ET.iterparse(path):
        tag = elem.tag
        code = codes.get(tag)
        if code is None:
            code = codes[tag] = CODES.get(tag[tag.rfind("}") + 1:], -1)
        if code == TIME:
            time = elem.text
        elif code == LATITUDE:
            lat = elem.text
        elif code == LONGITUDE:
            lon = elem.text
        elif code == TCX_POINT:  # TCX: Time and Position's degrees inside
            if time is not None and lat is not None and lon is not None:
                yield track, time, float(lat), float(lon)
            time = lat = lon = None
            elem.clear()
        elif code == GPX_POINT:  # GPX: lat and lon attributes, time inside
            if time is not None:
                yield track, time, float(elem.get("lat")), float(elem.get("lon"))
            time = None
            elem.clear()
        elif code == COORD:  # KML gx:Track: each when paired with the gx:coord after it
            parts = elem.text.split()
            if time is not None:
                yield track, time, float(parts[1]), float(parts[0])
            time = None
            elem.clear()
        elif code == TRACK:
            track += 1
            elem.clear()


def main():
    total, count, last = 0.0, 0, None
    for track, _time, lat, lon in positions(sys.argv[1]):
        count += 1
        la, lo = math.radians(lat), math.radians(lon)
        if last is not None and last[0] == track:
            a = math.sin((la - last[1]) / 2) ** 2 + math.cos(la) * math.cos(last[1]) * math.sin((lo - last[2]) / 2) ** 2
            total += 2 * R * math.asin(min(1.0, math.sqrt(a)))
        last = (track, la, lo)
    print(f"points={count} meters={total:.3f}")


if __name__ == "__main__":
    main()
