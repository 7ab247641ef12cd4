package dev.phalanx.examples.particles;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBuffer;

/**
 * Creates root entities: plain particles, frozen dust, glowing sparks and comets with their tails.
 *
 * <p>Every spawn draws the same sequence of random numbers from one seeded generator (position,
 * speed, lifetime, kind, then the children's offsets for a comet), so the world depends only on the
 * seed and on how many entities were spawned, never on the order in which entities died.
 */
public final class Spawner {

  private final Storages storages;
  private final SplitMix random;
  private final CommandBuffer commands;
  // Commands per apply: bounds the buffer's arrays when the initial world is spawned.
  private static final int BATCH = 16_384;

  /** Creates a spawner drawing from a generator seeded with {@code seed}. */
  public Spawner(final Registry registry, final Storages storages, final long seed) {
    this.storages = storages;
    this.random = new SplitMix(seed);
    this.commands = new CommandBuffer(registry);
  }

  /** Returns the random generator's state, which a snapshot of the world saves. */
  public long randomState() {
    return random.state();
  }

  /** Continues the random sequence from {@code state}, as saved by {@link #randomState()}. */
  public void restoreRandomState(final long state) {
    random.restore(state);
  }

  /**
   * Spawns {@code count} root entities: records them in a command buffer (reserved entities, typed
   * emplaces), applied every few thousand commands, before each comet's tail and at the end.
   * Reservations materialize in recording order, so the identifiers are those a direct spawn would
   * give.
   */
  public void spawn(final int count) {
    for (int i = 0; i < count; i++) {
      spawnOne();
      if (commands.size() >= BATCH) {
        commands.apply();
      }
    }
    commands.apply();
  }

  private void spawnOne() {
    final float x = (float) (random.nextDouble() * Rules.SIZE);
    final float y = (float) (random.nextDouble() * Rules.SIZE);
    final float dx = (float) ((random.nextDouble() * 2 - 1) * Rules.SPAWN_SPEED);
    final float dy = (float) ((random.nextDouble() * 2 - 1) * Rules.SPAWN_SPEED);
    final int ticks = Rules.MIN_LIFETIME + random.nextInt(Rules.LIFETIME_SPAN);
    final int kind = random.nextInt(Rules.KIND_ROLLS);

    final long e = commands.create();
    storages.positions.emplace(commands, e, x, y);
    storages.lifetimes.emplace(commands, e, ticks);
    if (kind < Rules.COMET_ROLLS) {
      storages.velocities.emplace(commands, e, dx, dy);
      commands.emplace(e, Comet_Traits.TYPE, null);
      // A tail particle's attachment names its comet in a field, where the buffer does not resolve
      // reserved handles: the comet is created first.
      commands.apply();
      spawnTail(commands.entityOf(e), x, y);
    } else if (kind < Rules.COMET_ROLLS + Rules.FROZEN_ROLLS) {
      // Frozen dust keeps a (zero) velocity: it is the tag, not a missing component, that keeps it
      // out of the movers group.
      storages.velocities.emplace(commands, e, 0f, 0f);
      commands.emplace(e, Frozen_Traits.TYPE, null);
    } else {
      storages.velocities.emplace(commands, e, dx, dy);
      if (kind < Rules.COMET_ROLLS + Rules.FROZEN_ROLLS + Rules.GLOWING_ROLLS) {
        commands.emplace(e, Glowing_Traits.TYPE, null);
      }
    }
  }

  /** Creates the tail particles of comet {@code head}, an entity, each naming it. */
  private void spawnTail(final long head, final float x, final float y) {
    for (int c = 0; c < Rules.COMET_CHILDREN; c++) {
      final float offsetX = (float) ((random.nextDouble() * 2 - 1) * Rules.CHILD_SPREAD);
      final float offsetY = (float) ((random.nextDouble() * 2 - 1) * Rules.CHILD_SPREAD);
      final long child = commands.create();
      storages.positions.emplace(commands, child, Rules.wrap(x + offsetX), Rules.wrap(y + offsetY));
      storages.attachments.emplace(commands, child, head, offsetX, offsetY);
    }
  }
}
