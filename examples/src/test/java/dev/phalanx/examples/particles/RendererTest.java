package dev.phalanx.examples.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RendererTest {

  @Test
  void writesAPngOfTheWorld(@TempDir final Path folder) throws Exception {
    final Path file = folder.resolve("out/particles.png");
    try (World world = new World(2_000, 1, 1, 5)) {
      world.step();
      new Renderer(128).write(world, file);
    }
    final BufferedImage image = ImageIO.read(file.toFile());
    assertEquals(128, image.getWidth());
    assertEquals(128, image.getHeight());
    int lit = 0;
    for (int y = 0; y < 128; y++) {
      for (int x = 0; x < 128; x++) {
        lit += (image.getRGB(x, y) & 0xFFFFFF) > 0x101010 ? 1 : 0;
      }
    }
    assertTrue(lit > 500, "particles drawn: " + lit);
  }
}
