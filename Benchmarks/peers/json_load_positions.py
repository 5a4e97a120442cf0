"""The GeoJSON yardstick: Python's json.load plus a loop reading every position.

Reads the whole document with the standard library's C-accelerated json.load, then walks the
features and reads each Point's longitude, latitude and time (and each LineString's positions),
summing nothing but what a reader must touch. It computes no distance, so it is less work than
`routemiles measure`: a lower bound for "parse GeoJSON in Python".

    python3 Benchmarks/peers/json_load_positions.py FILE.geojson
"""
import json
import sys


def positions(document):
    features = document.get("features")
    if features is None:
        features = [document]
    for feature in features:
        geometry = feature.get("geometry") or {}
        properties = feature.get("properties") or {}
        kind = geometry.get("type")
        if kind == "Point":
            lon, lat = geometry["coordinates"][:2]
            yield lon, lat, properties.get("time")
        elif kind == "LineString":
            times = properties.get("coordTimes") or [None] * len(geometry["coordinates"])
            for (lon, lat, *_), time in zip(geometry["coordinates"], times):
                yield lon, lat, time


def main():
    with open(sys.argv[1], "rb") as f:
        document = json.load(f)
    count, timed, lat_sum = 0, 0, 0.0
    for lon, lat, time in positions(document):
        count += 1
        lat_sum += lat
        timed += time is not None
    print(f"{count} positions, {timed} timed (json.load + loop)")


if __name__ == "__main__":
    main()
