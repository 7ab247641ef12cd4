package dev.phalanx.benchmarks.model;

/** A plain component (object storages, Dominion, the objects baseline). */
public final class Scale {
  public float s = 1f;
}
