package dev.phalanx.benchmarks.model;

/** A position kept in an in-place (stable) Phalanx storage: removals leave holes, nothing moves. */
public final class StablePosition {
  public float x;
  public float y;
}
