#!/usr/bin/env python3
"""CI test: the Spark example job measures a few thousand generated shifts through
`routemiles pipe` in local[2], and every result must equal `routemiles batch` on the same shifts.

    python3 Tests/spark/test_spark_job.py --binary .build/release/routemiles [--shifts 3000]

Exits non-zero, naming the shift, on any mismatch, a lost row, or a bad record without an error
row. Prints shifts per second per core for Spark and for batch, so the engine's overhead is known.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Examples", "spark"))

import measure_shifts  # noqa: E402


def iso(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def generate(count, seed):
    """Shifts in an invented place (open ocean near 0.5N 160W): sessions, silences, legacy rows."""
    rng = random.Random(seed)
    shifts = []
    for index in range(count):
        start = 1_764_403_200 + index * 3_600
        lat, lon = 0.5 + rng.uniform(-0.05, 0.05), -160.0 + rng.uniform(-0.05, 0.05)
        heading = rng.uniform(0, 6.283)
        t = start
        rows = []
        legacy = rng.random() < 0.1
        sessions = rng.randint(1, 3)
        for session in range(sessions):
            for _ in range(rng.randint(10, 120)):
                t += rng.choice([1, 1, 1, 2, 3, 5]) if rng.random() > 0.01 else rng.randint(121, 600)
                speed = rng.uniform(0, 25)
                heading += rng.uniform(-0.2, 0.2)
                import math
                lat += speed * math.cos(heading) / 111_195.0
                lon += speed * math.sin(heading) / (111_195.0 * math.cos(math.radians(lat)))
                rows.append({
                    "t": iso(t), "lat": round(lat, 7), "lon": round(lon, 7),
                    "acc": round(rng.uniform(3, 30), 1),
                    "session": None if legacy else f"s{session}",
                })
            t += rng.randint(5, 60)
        rng.shuffle(rows)  # a warehouse returns rows in no particular order
        shifts.append((f"shift-{index:05d}", rows))
    return shifts


def write_inputs(shifts, directory):
    samples_path = os.path.join(directory, "samples.jsonl")
    csv_dir = os.path.join(directory, "shifts")
    os.makedirs(csv_dir)
    with open(samples_path, "w") as table:
        for shift_id, rows in shifts:
            for row in rows:
                table.write(json.dumps({"shift_id": shift_id, **row}) + "\n")
            legacy = rows and rows[0]["session"] is None
            with open(os.path.join(csv_dir, shift_id + ".csv"), "w") as csv:
                if legacy:
                    csv.write("timestamp,latitude,longitude,horizontal_accuracy\n")
                else:
                    csv.write("timestamp,latitude,longitude,horizontal_accuracy,capture_session_id\n")
                for row in rows:
                    fields = [row["t"], repr(row["lat"]), repr(row["lon"]), repr(row["acc"])]
                    if not legacy:
                        fields.append(row["session"])
                    csv.write(",".join(fields) + "\n")
    return samples_path, csv_dir


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--shifts", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    work = tempfile.mkdtemp(prefix="routemiles-spark-")
    try:
        shifts = generate(args.shifts, args.seed)
        samples_path, csv_dir = write_inputs(shifts, work)
        positions = sum(len(rows) for _, rows in shifts)
        print(f"generated {len(shifts)} shifts, {positions} positions")

        # routemiles batch on one machine, one core, for the overhead comparison.
        started = time.time()
        batch = subprocess.run(
            [binary, "batch", "--no-filter", "--format", "jsonl", "--jobs", "1", "--no-progress", csv_dir],
            capture_output=True, text=True)
        batch_seconds = time.time() - started
        if batch.returncode != 0:
            sys.exit(f"routemiles batch failed ({batch.returncode}): {batch.stderr[-2000:]}")
        expected = {}
        for line in batch.stdout.splitlines():
            row = json.loads(line)
            expected[os.path.basename(row["source"])[:-len(".csv")]] = row

        from pyspark.sql import SparkSession
        spark = (SparkSession.builder.master("local[2]").appName("routemiles-ci")
                 .config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false")
                 .config("spark.sql.shuffle.partitions", "4").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        spark.sparkContext.addFile(binary)
        from pyspark import SparkFiles
        shipped = SparkFiles.get(os.path.basename(binary))
        os.chmod(shipped, 0o755)

        samples = spark.read.json(samples_path)
        records = measure_shifts.shift_records(samples)
        bad = spark.createDataFrame([('{"id":"bad-record","samples":5}',)], ["record"])
        records = records.unionByName(bad).cache()
        records.count()
        started = time.time()
        results = measure_shifts.measure(spark, records, shipped)
        out_path = os.path.join(work, "results")
        results.write.mode("overwrite").json(out_path)
        spark_seconds = time.time() - started
        rows = spark.read.json(out_path).collect()
        spark.stop()

        failures = []
        by_id = {}
        for row in rows:
            if row["id"] in by_id:
                failures.append(f"{row['id']}: more than one result row")
            by_id[row["id"]] = json.loads(row["result"])
        if len(rows) != len(shifts) + 1:
            failures.append(f"{len(rows)} result rows for {len(shifts) + 1} records: a row was lost or duplicated")
        bad_row = by_id.get("bad-record")
        if bad_row is None or "error" not in bad_row or "meters" in bad_row:
            failures.append(f"the bad record did not give an error row: {bad_row}")
        pinned = ["meters", "miles", "segmentCount", "gapCount", "usablePositionCount",
                  "usesInferredContinuity", "isMeasured", "isPartial", "summary", "segments", "gaps"]
        for shift_id, _ in shifts:
            got, want = by_id.get(shift_id), expected.get(shift_id)
            if got is None or want is None:
                failures.append(f"{shift_id}: missing from {'spark' if got is None else 'batch'}")
                continue
            for key in pinned:
                if got.get(key) != want.get(key):
                    failures.append(f"{shift_id}: {key} spark={got.get(key)!r} batch={want.get(key)!r}")
                    break
        if failures:
            print("\n".join(failures[:20]))
            sys.exit(f"FAILED: {len(failures)} problems")

        cores = 2
        print(f"spark local[{cores}]: {len(shifts)} shifts in {spark_seconds:.2f} s = "
              f"{len(shifts) / spark_seconds / cores:.0f} shifts/s/core")
        print(f"routemiles batch --jobs 1: {len(shifts)} shifts in {batch_seconds:.2f} s = "
              f"{len(shifts) / batch_seconds:.0f} shifts/s/core")
        print(f"OK: {len(shifts)} shifts identical through Spark and batch; the bad record gave an error row")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
