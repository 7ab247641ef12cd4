package dev.phalanx.benchmarks.model;

/** A small component added and removed by the structural workloads. */
public final class Marker {
  public int value;
}
