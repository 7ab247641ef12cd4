package dev.phalanx.benchmarks.model;

/** A plain component (object storages, Dominion, the objects baseline). */
public final class Position {
  public float x;
  public float y;
}
