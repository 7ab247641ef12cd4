package dev.phalanx.benchmarks.worlds;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;

/**
 * EnTT's pathological churn, for any three component types: 500k entities with all three; then ten
 * rounds of removing the first type from every 7th live entity, the second from every 11th, the
 * third from every 13th and destroying every 17th, then adding 50k entities with all three.
 */
public final class Churn {

  /** Gives entity {@code e} (the {@code i}-th created) its three components. */
  @FunctionalInterface
  public interface Populate {
    void apply(long e, int i);
  }

  private Churn() {}

  /** Runs the churn on {@code registry}. */
  public static void run(
      final Registry registry,
      final Populate populate,
      final ComponentType<?, ?> first,
      final ComponentType<?, ?> second,
      final ComponentType<?, ?> third) {
    int created = 0;
    for (; created < Work.PATHOLOGICAL_ENTITIES; created++) {
      populate.apply(registry.create(), created);
    }
    for (int round = 0; round < 10; round++) {
      final long[] alive = new long[registry.alive()];
      final int[] at = {0};
      registry.entities().each(e -> alive[at[0]++] = e);
      for (int i = 0; i < alive.length; i++) {
        final long e = alive[i];
        if (0 == i % 7) {
          registry.remove(e, first);
        }
        if (0 == i % 11) {
          registry.remove(e, second);
        }
        if (0 == i % 13) {
          registry.remove(e, third);
        }
        if (0 == i % 17) {
          registry.destroy(e);
        }
      }
      for (int i = 0; i < 50_000; i++, created++) {
        populate.apply(registry.create(), created);
      }
    }
  }
}
