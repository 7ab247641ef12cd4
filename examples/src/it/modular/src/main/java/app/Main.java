// src/main/java/app/Main.java
package app;

import dev.phalanx.ecs.Registry;

public final class Main {
  public static void main(final String[] args) {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    for (int i = 0; i < 3; i++) {
      final long entity = registry.create();
      positions.emplace(entity, i, 0f);
      velocities.emplace(entity, 1f, 0f);
    }
    MovingQuery.of(registry)
        .each(
            (entity, position, velocity) -> {
              position.setX(position.x() + velocity.dx());
              System.out.println(position.get()); // Position[x=1.0, y=0.0] and so on
            });
  }
}
