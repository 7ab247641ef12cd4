package dev.phalanx.examples.particles;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Entity;
import java.util.SplittableRandom;

/**
 * Creates root entities: plain particles, frozen dust, glowing sparks and comets with their tails.
 *
 * <p>Every spawn draws the same sequence of random numbers from one seeded generator (position,
 * speed, lifetime, kind, then the children's offsets for a comet), so the world depends only on the
 * seed and on how many entities were spawned, never on the order in which entities died.
 */
public final class Spawner {

  private final Registry registry;
  private final Storages storages;
  private final SplittableRandom random;

  /** Creates a spawner drawing from a generator seeded with {@code seed}. */
  public Spawner(final Registry registry, final Storages storages, final long seed) {
    this.registry = registry;
    this.storages = storages;
    this.random = new SplittableRandom(seed);
  }

  /** Spawns {@code count} root entities. */
  public void spawn(final int count) {
    for (int i = 0; i < count; i++) {
      spawnOne();
    }
  }

  private void spawnOne() {
    final float x = (float) (random.nextDouble() * Rules.SIZE);
    final float y = (float) (random.nextDouble() * Rules.SIZE);
    final float dx = (float) ((random.nextDouble() * 2 - 1) * Rules.SPAWN_SPEED);
    final float dy = (float) ((random.nextDouble() * 2 - 1) * Rules.SPAWN_SPEED);
    final int ticks = Rules.MIN_LIFETIME + random.nextInt(Rules.LIFETIME_SPAN);
    final int kind = random.nextInt(Rules.KIND_ROLLS);

    final long e = registry.create();
    storages.positions.emplace(e, x, y);
    storages.lifetimes.emplace(e, ticks);
    if (kind < Rules.COMET_ROLLS) {
      storages.velocities.emplace(e, dx, dy);
      spawnTail(e, x, y);
    } else if (kind < Rules.COMET_ROLLS + Rules.FROZEN_ROLLS) {
      // Frozen dust keeps a (zero) velocity: it is the tag, not a missing component, that keeps it
      // out of the movers group.
      storages.velocities.emplace(e, 0f, 0f);
      storages.frozen.emplace(e);
    } else {
      storages.velocities.emplace(e, dx, dy);
      if (kind < Rules.COMET_ROLLS + Rules.FROZEN_ROLLS + Rules.GLOWING_ROLLS) {
        storages.glowing.emplace(e);
      }
    }
  }

  /** Creates the children of comet {@code head}, attached to it in the registry's hierarchy. */
  private void spawnTail(final long head, final float x, final float y) {
    for (int c = 0; c < Rules.COMET_CHILDREN; c++) {
      final float offsetX = (float) ((random.nextDouble() * 2 - 1) * Rules.CHILD_SPREAD);
      final float offsetY = (float) ((random.nextDouble() * 2 - 1) * Rules.CHILD_SPREAD);
      final long child = registry.create();
      storages.positions.emplace(child, Rules.wrap(x + offsetX), Rules.wrap(y + offsetY));
      storages.attachments.emplace(child, offsetX, offsetY);
      storages.hierarchy.attach(child, head);
    }
    storages.comets.emplace(head);
  }
}
