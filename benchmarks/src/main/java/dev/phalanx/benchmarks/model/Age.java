package dev.phalanx.benchmarks.model;

/** A plain component (object storages, Dominion, the objects baseline). */
public final class Age {
  public float value;
}
