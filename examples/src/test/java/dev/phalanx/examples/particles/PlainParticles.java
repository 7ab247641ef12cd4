package dev.phalanx.examples.particles;

import static dev.phalanx.examples.particles.Rules.CELLS;
import static dev.phalanx.examples.particles.Rules.CELL_SCALE;
import static dev.phalanx.examples.particles.Rules.COMET_CHILDREN;
import static dev.phalanx.examples.particles.Rules.wrap;

import java.util.SplittableRandom;

/**
 * The rules of the particle world again, on plain arrays, with no ECS at all: one slot per root
 * entity (a dead root's slot is refilled by its replacement), and {@link Rules#COMET_CHILDREN}
 * slots per root for a comet's tail. Written from the rules, not from the systems, so that a {@link
 * World} that agrees with it shows that the storages, groups, views, relationships and entity
 * recycling did their job. Only the constants, {@link Rules#wrap} and the attractor orbits are
 * shared.
 */
final class PlainParticles {

  private static final int PLAIN = 0;
  private static final int FROZEN = 1;
  private static final int GLOWING = 2;
  private static final int COMET = 3;

  private final int roots;
  private final SplittableRandom random;
  private final float[] x;
  private final float[] y;
  private final float[] vx;
  private final float[] vy;
  private final int[] ticks;
  private final int[] kind;
  private final float[] childX;
  private final float[] childY;
  private final float[] childOffsetX;
  private final float[] childOffsetY;
  private final int[] density = new int[CELLS * CELLS];
  private final boolean[] dead;
  private int frame;
  long deaths;
  long tailDeaths;

  PlainParticles(final int roots, final long seed) {
    this.roots = roots;
    this.random = new SplittableRandom(seed);
    x = new float[roots];
    y = new float[roots];
    vx = new float[roots];
    vy = new float[roots];
    ticks = new int[roots];
    kind = new int[roots];
    dead = new boolean[roots];
    childX = new float[roots * COMET_CHILDREN];
    childY = new float[roots * COMET_CHILDREN];
    childOffsetX = new float[roots * COMET_CHILDREN];
    childOffsetY = new float[roots * COMET_CHILDREN];
    for (int r = 0; r < roots; r++) {
      spawn(r);
    }
  }

  private void spawn(final int r) {
    x[r] = (float) (random.nextDouble() * Rules.SIZE);
    y[r] = (float) (random.nextDouble() * Rules.SIZE);
    final float dx = (float) ((random.nextDouble() * 2 - 1) * Rules.SPAWN_SPEED);
    final float dy = (float) ((random.nextDouble() * 2 - 1) * Rules.SPAWN_SPEED);
    ticks[r] = Rules.MIN_LIFETIME + random.nextInt(Rules.LIFETIME_SPAN);
    final int roll = random.nextInt(Rules.KIND_ROLLS);
    if (roll < Rules.COMET_ROLLS) {
      kind[r] = COMET;
    } else if (roll < Rules.COMET_ROLLS + Rules.FROZEN_ROLLS) {
      kind[r] = FROZEN;
    } else if (roll < Rules.COMET_ROLLS + Rules.FROZEN_ROLLS + Rules.GLOWING_ROLLS) {
      kind[r] = GLOWING;
    } else {
      kind[r] = PLAIN;
    }
    vx[r] = FROZEN == kind[r] ? 0f : dx;
    vy[r] = FROZEN == kind[r] ? 0f : dy;
    if (COMET == kind[r]) {
      for (int c = r * COMET_CHILDREN; c < (r + 1) * COMET_CHILDREN; c++) {
        childOffsetX[c] = (float) ((random.nextDouble() * 2 - 1) * Rules.CHILD_SPREAD);
        childOffsetY[c] = (float) ((random.nextDouble() * 2 - 1) * Rules.CHILD_SPREAD);
        childX[c] = wrap(x[r] + childOffsetX[c]);
        childY[c] = wrap(y[r] + childOffsetY[c]);
      }
    }
  }

  void step() {
    countDensity();
    move();
    follow();
    // Age everyone, then refill the dead slots in order: the spawns draw the same numbers as the
    // world's spawner, which creates as many roots as died.
    for (int r = 0; r < roots; r++) {
      dead[r] = --ticks[r] <= 0;
    }
    for (int r = 0; r < roots; r++) {
      if (dead[r]) {
        deaths++;
        tailDeaths += COMET == kind[r] ? COMET_CHILDREN : 0;
        spawn(r);
      }
    }
    frame++;
  }

  private void countDensity() {
    java.util.Arrays.fill(density, 0);
    for (int r = 0; r < roots; r++) {
      density[cell(x[r], y[r])]++;
      if (COMET == kind[r]) {
        for (int c = r * COMET_CHILDREN; c < (r + 1) * COMET_CHILDREN; c++) {
          density[cell(childX[c], childY[c])]++;
        }
      }
    }
  }

  private static int cell(final float px, final float py) {
    return ((int) (py * CELL_SCALE) & (CELLS - 1)) * CELLS
        + ((int) (px * CELL_SCALE) & (CELLS - 1));
  }

  private void move() {
    final float[] attractorX = new float[Rules.ATTRACTORS];
    final float[] attractorY = new float[Rules.ATTRACTORS];
    for (int a = 0; a < Rules.ATTRACTORS; a++) {
      attractorX[a] = Rules.attractorX(a, frame);
      attractorY[a] = Rules.attractorY(a, frame);
    }
    for (int r = 0; r < roots; r++) {
      if (FROZEN == kind[r]) {
        continue;
      }
      float ax = 0f;
      float ay = 0f;
      for (int a = 0; a < Rules.ATTRACTORS; a++) {
        final float tx = attractorX[a] - x[r];
        final float ty = attractorY[a] - y[r];
        final float r2 = tx * tx + ty * ty + Rules.SOFTENING;
        final float pull = Rules.GRAVITY / (r2 * (float) Math.sqrt(r2));
        ax += (tx - Rules.SWIRL * ty) * pull;
        ay += (ty + Rules.SWIRL * tx) * pull;
      }
      final int col = (int) (x[r] * CELL_SCALE) & (CELLS - 1);
      final int row = (int) (y[r] * CELL_SCALE) & (CELLS - 1);
      ax -=
          Rules.PRESSURE
              * (density[row * CELLS + ((col + 1) & (CELLS - 1))]
                  - density[row * CELLS + ((col - 1) & (CELLS - 1))]);
      ay -=
          Rules.PRESSURE
              * (density[((row + 1) & (CELLS - 1)) * CELLS + col]
                  - density[((row - 1) & (CELLS - 1)) * CELLS + col]);
      vx[r] = (vx[r] + ax * Rules.DT) * Rules.DAMPING;
      vy[r] = (vy[r] + ay * Rules.DT) * Rules.DAMPING;
      x[r] = wrap(x[r] + vx[r] * Rules.DT);
      y[r] = wrap(y[r] + vy[r] * Rules.DT);
    }
  }

  private void follow() {
    for (int r = 0; r < roots; r++) {
      if (COMET == kind[r]) {
        for (int c = r * COMET_CHILDREN; c < (r + 1) * COMET_CHILDREN; c++) {
          childX[c] = wrap(x[r] + childOffsetX[c]);
          childY[c] = wrap(y[r] + childOffsetY[c]);
        }
      }
    }
  }

  int alive() {
    int count = roots;
    for (int r = 0; r < roots; r++) {
      count += COMET == kind[r] ? COMET_CHILDREN : 0;
    }
    return count;
  }

  long checksum() {
    long sum = 0;
    for (int r = 0; r < roots; r++) {
      final int flags =
          switch (kind[r]) {
            case FROZEN -> Checksums.FROZEN;
            case GLOWING -> Checksums.GLOWING;
            case COMET -> Checksums.COMET | COMET_CHILDREN << 8;
            default -> 0;
          };
      sum += Checksums.mix(Checksums.root(x[r], y[r], vx[r], vy[r], ticks[r], flags));
      if (COMET == kind[r]) {
        for (int c = r * COMET_CHILDREN; c < (r + 1) * COMET_CHILDREN; c++) {
          sum +=
              Checksums.mix(
                  Checksums.child(
                      childX[c], childY[c], childOffsetX[c], childOffsetY[c], x[r], y[r]));
        }
      }
    }
    return sum;
  }
}
