package dev.phalanx.examples.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class OptionsTest {

  @Test
  void defaultsAreAMillionEntitiesForAHundredFrames() {
    final Options options = Options.parse();
    assertEquals(1_000_000, options.entities());
    assertEquals(100, options.frames());
    assertEquals(42, options.seed());
    assertFalse(options.help());
    assertFalse(options.replica());
    assertEquals("particles.png", options.out().getFileName().toString());
  }

  @Test
  void readsSpaceAndEqualsForms() {
    final Options options =
        Options.parse(
            "--entities",
            "5_000",
            "--frames=20",
            "--seed",
            "-3",
            "--threads",
            "1",
            "--image=256",
            "--out",
            "x/y.png");
    assertEquals(5_000, options.entities());
    assertEquals(20, options.frames());
    assertEquals(-3, options.seed());
    assertEquals(1, options.threads());
    assertEquals(256, options.imageSize());
    assertEquals(Path.of("x/y.png"), options.out());
  }

  @Test
  void helpAndMistakes() {
    assertTrue(Options.parse("--help").help());
    assertTrue(Options.USAGE.contains("--entities"));
    assertTrue(Options.USAGE.contains("--replica"));
    assertTrue(Options.parse("--replica", "--frames", "3").replica());
    assertEquals(-1, Options.parse().inspect());
    assertEquals(0, Options.parse("--inspect").inspect());
    assertEquals(0, Options.parse("--inspect", "--frames", "3").inspect());
    assertEquals(8123, Options.parse("--inspect", "8123", "--frames", "3").inspect());
    assertEquals(8123, Options.parse("--inspect=8123").inspect());
    assertThrows(IllegalArgumentException.class, () -> Options.parse("--inspect", "70000"));
    assertTrue(Options.USAGE.contains("--inspect"));
    assertThrows(IllegalArgumentException.class, () -> Options.parse("--entities"));
    assertThrows(IllegalArgumentException.class, () -> Options.parse("--entities", "0"));
    assertThrows(IllegalArgumentException.class, () -> Options.parse("--frames", "many"));
    assertThrows(IllegalArgumentException.class, () -> Options.parse("--speed", "3"));
  }
}
