package dev.phalanx.examples.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.examples.Simulation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A saved and reloaded particle world runs on exactly as the original. */
class WorldSnapshotTest {

  private static final int ROOTS = 3_000;
  private static final long SEED = 11;

  @Test
  void hundredFramesEqualFiftySaveLoadAndFiftyMore() throws IOException {
    final long straight;
    try (World world = new World(ROOTS, SEED, 1, 100)) {
      for (int i = 0; i < 100; i++) {
        world.step();
      }
      straight = world.checksum();
    }
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (World world = new World(ROOTS, SEED, 1, 100)) {
      for (int i = 0; i < 50; i++) {
        world.step();
      }
      world.save(bytes);
    }
    try (World loaded = World.load(new ByteArrayInputStream(bytes.toByteArray()), 2, 100)) {
      assertEquals(List.of(), loaded.registry().verify());
      assertEquals(50, loaded.frame());
      for (int i = 0; i < 50; i++) {
        loaded.step();
      }
      assertEquals(straight, loaded.checksum());
    }
  }

  @Test
  void theSpawnersGeneratorDrawsWhatSplittableRandomDraws() {
    final SplittableRandom reference = new SplittableRandom(99);
    final SplitMix mine = new SplitMix(99);
    for (int i = 0; i < 100_000; i++) {
      assertEquals(reference.nextDouble(), mine.nextDouble());
      final int bound = 1 + (i % 1000);
      assertEquals(reference.nextInt(bound), mine.nextInt(bound));
    }
  }

  @Test
  void theCommandLineSavesAndLoads(@TempDir final Path dir) throws IOException {
    final Path file = dir.resolve("world.phnx");
    Simulation.main(
        new String[] {
          "--entities",
          "2000",
          "--frames",
          "20",
          "--threads",
          "1",
          "--save",
          file.toString(),
          "--save-at",
          "10",
          "--out",
          dir.resolve("a.png").toString()
        });
    assertTrue(file.toFile().length() > 0);
    Simulation.main(
        new String[] {
          "--load",
          file.toString(),
          "--frames",
          "10",
          "--threads",
          "1",
          "--out",
          dir.resolve("b.png").toString()
        });
  }
}
