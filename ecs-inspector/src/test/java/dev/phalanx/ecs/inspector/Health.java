package dev.phalanx.ecs.inspector;

import dev.phalanx.ecs.annotations.Component;

/** A tracked test component whose constructor validates (written through constructed values). */
@Component(tracked = true)
@SuppressWarnings("PhalanxValidatingConstructor")
public record Health(int points) {
  /** Refuses negative points. */
  public Health {
    if (points < 0) {
      throw new IllegalArgumentException("points must not be negative, got " + points);
    }
  }
}
