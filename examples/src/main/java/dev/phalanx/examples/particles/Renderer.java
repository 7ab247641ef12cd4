package dev.phalanx.examples.particles;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * Draws the world into a PNG: brightness is the (log) density of particles per pixel, colour their
 * mean speed (slow violet, through blue and amber, to fast white); sparks add a warm glow, comets
 * are drawn cyan and the attractors as small white rings.
 */
public final class Renderer {

  // Colour stops of the speed ramp, from still to fast.
  private static final int[][] RAMP = {
    {40, 20, 90}, {30, 90, 200}, {60, 190, 220}, {250, 180, 60}, {255, 250, 235}
  };
  private static final float FAST = 400f;

  private final int size;
  private final float scale;
  private final int[] count;
  private final float[] speed;
  private final int[] glow;
  private final int[] tail;

  /** Creates a renderer for square pictures of {@code size} pixels. */
  public Renderer(final int size) {
    this.size = size;
    this.scale = size / Rules.SIZE;
    this.count = new int[size * size];
    this.speed = new float[size * size];
    this.glow = new int[size * size];
    this.tail = new int[size * size];
  }

  /**
   * Renders {@code world} and writes it to {@code file} as a PNG, creating its folder if needed.
   */
  public void write(final World world, final Path file) throws IOException {
    final BufferedImage image = render(world);
    final Path folder = file.toAbsolutePath().getParent();
    if (null != folder) {
      Files.createDirectories(folder);
    }
    ImageIO.write(image, "png", file.toFile());
  }

  /** Renders {@code world} into a new image. */
  public BufferedImage render(final World world) {
    accumulate(world);
    final BufferedImage image = new BufferedImage(size, size, BufferedImage.TYPE_INT_RGB);
    // Full brightness at a few times the mean density: normalising by the densest pixel would leave
    // everything but the attractors' cores black.
    final double logPeak = Math.log1p(Math.max(2.0, 6.0 * world.registry().alive() / count.length));
    final int[] rgb = new int[size * size];
    for (int p = 0; p < rgb.length; p++) {
      rgb[p] = shade(p, logPeak);
    }
    image.setRGB(0, 0, size, size, rgb, 0, size);
    drawAttractors(world, image);
    return image;
  }

  private void accumulate(final World world) {
    final Storages s = world.storages();
    final int movers = world.movers().size();
    // Positions [0, movers.size()) of Position and Velocity hold the same entities (the group owns
    // both storages), so the speed of the particle at position p is at position p too. The others
    // (frozen dust, comet tails) are still.
    for (int position = 0; position < s.positions.size(); position++) {
      final int pixel = pixel(s.positions.xAt(position), s.positions.yAt(position));
      count[pixel]++;
      if (position < movers) {
        final float dx = s.velocities.dxAt(position);
        final float dy = s.velocities.dyAt(position);
        speed[pixel] += (float) Math.sqrt(dx * dx + dy * dy);
      }
    }
    world.sparks().each((e, at) -> glow[pixel(at.x(), at.y())]++);
    world.followers().each((e, link, at) -> tail[pixel(at.x(), at.y())]++);
  }

  private int pixel(final float x, final float y) {
    final int px = Math.min(size - 1, (int) (x * scale));
    final int py = Math.min(size - 1, (int) (y * scale));
    return py * size + px;
  }

  private int shade(final int p, final double logPeak) {
    if (0 == count[p]) {
      return 0x05050A;
    }
    final double light = Math.min(1.0, 0.2 + 0.8 * Math.log1p(count[p]) / logPeak);
    final float t = Math.min(1f, speed[p] / count[p] / FAST);
    final float at = t * (RAMP.length - 1);
    final int stop = Math.min(RAMP.length - 2, (int) at);
    final float f = at - stop;
    double r = light * (RAMP[stop][0] + f * (RAMP[stop + 1][0] - RAMP[stop][0]));
    double g = light * (RAMP[stop][1] + f * (RAMP[stop + 1][1] - RAMP[stop][1]));
    double b = light * (RAMP[stop][2] + f * (RAMP[stop + 1][2] - RAMP[stop][2]));
    if (glow[p] > 0) {
      r += 60 * glow[p];
      g += 40 * glow[p];
      b += 10 * glow[p];
    }
    if (tail[p] > 0) {
      r = 120;
      g = 255;
      b = 255;
    }
    return clamp(r) << 16 | clamp(g) << 8 | clamp(b);
  }

  private void drawAttractors(final World world, final BufferedImage image) {
    for (int a = 0; a < Rules.ATTRACTORS; a++) {
      final int cx = (int) (world.movement().attractorX(a) * scale);
      final int cy = (int) (world.movement().attractorY(a) * scale);
      final int radius = Math.max(3, size / 128);
      for (int step = 0; step < 64; step++) {
        final double angle = step * Math.PI / 32;
        final int x = cx + (int) Math.round(radius * Math.cos(angle));
        final int y = cy + (int) Math.round(radius * Math.sin(angle));
        if (x >= 0 && y >= 0 && x < size && y < size) {
          image.setRGB(x, y, 0xFFFFFF);
        }
      }
    }
  }

  private static int clamp(final double value) {
    return (int) Math.max(0, Math.min(255, value));
  }
}
