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

  @Test
  void theLossyLinkTakesClientsAndShares() {
    final Options defaults = Options.parse("--replica");
    assertEquals(2, defaults.clients());
    assertEquals(0.1, defaults.loss());
    assertEquals(0.1, defaults.reorder());
    final Options given =
        Options.parse("--replica", "--clients=5", "--loss", "0.25", "--reorder", "1");
    assertEquals(5, given.clients());
    assertEquals(0.25, given.loss());
    assertEquals(1.0, given.reorder(), "every datagram may be held back");
    assertEquals(0.0, Options.parse("--loss", "0").loss());
    // A link that loses every datagram never delivers: loss stays below 1.
    final IllegalArgumentException all =
        assertThrows(IllegalArgumentException.class, () -> Options.parse("--loss", "1"));
    assertTrue(all.getMessage().contains("[0, 1)"), all.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Options.parse("--reorder", "1.5"));
    assertThrows(IllegalArgumentException.class, () -> Options.parse("--loss", "-0.1"));
    assertThrows(IllegalArgumentException.class, () -> Options.parse("--loss", "NaN"));
    assertThrows(IllegalArgumentException.class, () -> Options.parse("--loss", "some"));
    assertThrows(IllegalArgumentException.class, () -> Options.parse("--clients", "0"));
    assertTrue(Options.USAGE.contains("--loss") && Options.USAGE.contains("--reorder"));
  }
}
