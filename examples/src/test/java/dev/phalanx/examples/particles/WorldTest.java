package dev.phalanx.examples.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The particle world is deterministic and follows its rules, as checked against plain arrays. */
class WorldTest {

  private static final int ROOTS = 5_000;
  private static final int FRAMES = 60;
  private static final long SEED = 7;

  @ParameterizedTest(name = "{0} threads")
  @ValueSource(ints = {1, 2, 4})
  void finalStateMatchesThePlainArrayModel(final int threads) {
    final PlainParticles model = new PlainParticles(ROOTS, SEED);
    try (World world = new World(ROOTS, SEED, threads, FRAMES)) {
      assertEquals(model.checksum(), world.checksum(), "initial state");
      for (int frame = 1; frame <= FRAMES; frame++) {
        world.step();
        model.step();
        assertEquals(model.checksum(), world.checksum(), "checksum after frame " + frame);
      }
      assertEquals(model.alive(), world.registry().alive());
      assertEquals(model.deaths, world.lifetime().destroyedRoots());
      assertEquals(model.tailDeaths, world.lifetime().destroyedChildren());
      // The run must have exercised what it claims to check: deaths, respawns and whole families.
      assertTrue(world.lifetime().destroyedRoots() > 100, "roots died");
      assertTrue(world.lifetime().destroyedChildren() > 0, "a comet died with its tail");
    }
  }

  @Test
  void sameSeedSameWorldOtherSeedOtherWorld() {
    assertEquals(run(SEED, 2), run(SEED, 2));
    assertNotEquals(run(SEED, 2), run(SEED + 1, 2));
  }

  @Test
  void threadCountDoesNotChangeTheResult() {
    // Large enough for parallelEachChunk to split the movers into several tasks.
    final long one = run(40_000, SEED, 1, 20);
    for (final int threads : new int[] {2, 3, 4}) {
      assertEquals(one, run(40_000, SEED, threads, 20), threads + " threads");
    }
  }

  @Test
  void theScheduleRunsTheSameFrameAsTheHandWrittenLoop() {
    try (World scheduled = new World(ROOTS, SEED, 2, FRAMES);
        World byHand = new World(ROOTS, SEED, 2, FRAMES)) {
      for (int frame = 1; frame <= FRAMES; frame++) {
        scheduled.step();
        byHand.stepWithoutSchedule();
        assertEquals(byHand.checksum(), scheduled.checksum(), "checksum after frame " + frame);
      }
      assertEquals(FRAMES, scheduled.schedule().frameTiming().samples());
      assertEquals(FRAMES, byHand.frame());
    }
  }

  @Test
  void theReactiveSpawnCounterMatchesTheDead() {
    try (World world = new World(ROOTS, SEED, 1, FRAMES)) {
      long spawned = 0;
      for (int frame = 0; frame < FRAMES; frame++) {
        world.step();
        spawned += world.spawnedLastFrame();
      }
      assertEquals(world.lifetime().destroyedRoots(), spawned, "every dead root is replaced once");
      assertTrue(spawned > 0, "the run is long enough for roots to die");
    }
  }

  @Test
  void tailsFollowTheirCometAndDieWithIt() {
    try (World world = new World(ROOTS, SEED, 1, FRAMES)) {
      for (int frame = 0; frame < FRAMES; frame++) {
        world.step();
      }
      final Storages s = world.storages();
      final int[] children = {0};
      world
          .followers()
          .each(
              (tail, link, at) -> {
                final long comet = s.tails.target(tail);
                assertEquals(link.comet(), comet);
                assertTrue(s.comets.contains(comet), "a tail outlived its comet");
                assertEquals(Rules.wrap(s.positions.x(comet) + link.offsetX()), at.x());
                children[0]++;
              });
      assertEquals(s.comets.size() * Rules.COMET_CHILDREN, children[0]);
      assertEquals(s.comets.size() * Rules.COMET_CHILDREN, s.tails.size());
      assertEquals(java.util.List.of(), s.tails.verify());
      assertEquals(java.util.List.of(), world.registry().verify());
      assertEquals(java.util.List.of(), world.registry().danglingReferences());
    }
  }

  private static long run(final long seed, final int threads) {
    return run(ROOTS, seed, threads, FRAMES);
  }

  private static long run(final int roots, final long seed, final int threads, final int frames) {
    try (World world = new World(roots, seed, threads, frames)) {
      for (int frame = 0; frame < frames; frame++) {
        world.step();
      }
      return world.checksum();
    }
  }
}
