package dev.phalanx.examples.replication;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;

/** A tracked in-place component with a field of every kind deltas encode, for replication tests. */
@Component(tracked = true, inPlaceDelete = true, pageSize = 8)
public record Sample(
    boolean flag,
    byte tiny,
    short small,
    char letter,
    int count,
    long big,
    float ratio,
    double precise,
    String name,
    Mode mode,
    @EntityRef long target) {

  /** An enum field's type. */
  public enum Mode {
    IDLE,
    RUNNING,
    DONE
  }
}
