#!/usr/bin/env python3
"""Batch-measure historical shifts on Apache Spark with `routemiles pipe`.

Reads a table of route samples (one row per sample: shift_id, t, lat, lon, acc, session) from
Parquet or JSON Lines, groups the samples by shift, streams one JSON record per shift through
`routemiles pipe` with SELECT TRANSFORM, and writes one result row per shift.

Nothing is re-implemented here: the measurement is the routemiles binary, shipped to the
executors with --files (or SparkContext.addFile), so a figure from Spark is the figure
`routemiles batch` gives for the same rows.

    spark-submit --files /path/to/routemiles Examples/spark/measure_shifts.py \
        --samples s3://bucket/route_samples/ --input-format parquet \
        --output s3://bucket/shift_mileage/ --binary ./routemiles

Optional: --shifts TABLE with (shift_id, shift_start, shift_end) gives each shift its window.
"""
import argparse
import os
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

RESULT_SCHEMA = T.StructType([
    T.StructField("id", T.StringType()),
    T.StructField("error", T.StringType()),
    T.StructField("format", T.StringType()),
    T.StructField("meters", T.DoubleType()),
    T.StructField("miles", T.DoubleType()),
    T.StructField("segmentCount", T.LongType()),
    T.StructField("gapCount", T.LongType()),
    T.StructField("usablePositionCount", T.LongType()),
    T.StructField("usesInferredContinuity", T.BooleanType()),
    T.StructField("isMeasured", T.BooleanType()),
    T.StructField("isPartial", T.BooleanType()),
    T.StructField("summary", T.StringType()),
    T.StructField("unmeasurable", T.StringType()),
    T.StructField("inputRows", T.LongType()),
])


def read_table(spark, path, fmt):
    return spark.read.parquet(path) if fmt == "parquet" else spark.read.json(path)


def shift_records(samples, shifts=None):
    """One JSON record per shift, in the shape `routemiles pipe` reads."""
    sample = F.struct(
        F.col("t").alias("t"), F.col("lat").alias("lat"), F.col("lon").alias("lon"),
        F.col("acc").alias("acc"), F.col("session").alias("session"))
    grouped = samples.groupBy("shift_id").agg(F.collect_list(sample).alias("samples"))
    if shifts is not None:
        grouped = grouped.join(shifts, "shift_id", "left")
        record = F.struct(
            F.col("shift_id").cast("string").alias("id"),
            F.col("shift_start").alias("shiftStart"), F.col("shift_end").alias("shiftEnd"),
            F.col("samples"))
    else:
        record = F.struct(F.col("shift_id").cast("string").alias("id"), F.col("samples"))
    # to_json escapes newlines and tabs, so each record is one line with no field separator.
    return grouped.select(F.to_json(record).alias("record"))


def measure(spark, records, binary, pipe_flags=""):
    """Runs each partition's records through `routemiles pipe`; one result row per record."""
    records.createOrReplaceTempView("shift_records")
    command = f"{binary} pipe {pipe_flags}".strip()
    raw = spark.sql(
        f"SELECT TRANSFORM(record) USING '{command}' AS (result STRING) FROM shift_records")
    parsed = raw.select(F.col("result"), F.from_json("result", RESULT_SCHEMA).alias("r"))
    return parsed.select("result", "r.*")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", required=True, help="route samples table (Parquet or JSON Lines)")
    parser.add_argument("--shifts", help="optional table of shift_id, shift_start, shift_end")
    parser.add_argument("--input-format", choices=["parquet", "json"], default="parquet")
    parser.add_argument("--output", required=True)
    parser.add_argument("--output-format", choices=["parquet", "json"], default="parquet")
    parser.add_argument("--binary", default="./routemiles",
                        help="path of routemiles on the executors (with --files: ./routemiles)")
    parser.add_argument("--pipe-flags", default="", help="extra flags for routemiles pipe, e.g. --filter")
    parser.add_argument("--master", help="e.g. local[2]; omit under spark-submit")
    args = parser.parse_args(argv)

    builder = SparkSession.builder.appName("routemiles-measure-shifts")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").getOrCreate()

    samples = read_table(spark, args.samples, args.input_format)
    shifts = read_table(spark, args.shifts, args.input_format) if args.shifts else None
    results = measure(spark, shift_records(samples, shifts), args.binary, args.pipe_flags)
    writer = results.write.mode("overwrite")
    (writer.parquet if args.output_format == "parquet" else writer.json)(args.output)
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
