package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * Not a JMH benchmark: the shots of {@link Destroy}'s {@code phalanx} row (1M entities with a
 * Position and a Velocity, destroyed one by one in creation order, recreated between shots) timed
 * twice, by the wall clock as JMH's single-shot mode times them and by the thread's CPU time. On a
 * shared machine the two part: a shot descheduled for a while keeps its CPU time and gains wall
 * time, which is where the spread of the single-shot destroy rows comes from. Diagnostic only;
 * performance claims come from JMH.
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar
 * dev.phalanx.benchmarks.structural.DestroyCpuTime [shots]} prints, per shot, CPU / wall ns per
 * entity.
 */
public final class DestroyCpuTime {

  private DestroyCpuTime() {}

  /**
   * Runs the shots.
   *
   * @param args the number of shots (40 by default)
   */
  public static void main(final String[] args) {
    final int shots = 0 == args.length ? 40 : Integer.parseInt(args[0]);
    final int n = Work.ENTITIES;
    final Worlds2.Phalanx world = new Worlds2.Phalanx(n);
    final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    final StringBuilder out = new StringBuilder("shot: cpu / wall ns per entity\n");
    for (int shot = 0; shot < shots; shot++) {
      if (0 != shot) {
        world.recreate();
      }
      final long cpu0 = threads.getCurrentThreadCpuTime();
      final long wall0 = System.nanoTime();
      for (final long e : world.entities) {
        world.registry.destroy(e);
      }
      final long wall1 = System.nanoTime();
      final long cpu1 = threads.getCurrentThreadCpuTime();
      out.append(
          String.format(
              Locale.ROOT,
              "%d: %.1f / %.1f%n",
              shot,
              (cpu1 - cpu0) / (double) n,
              (wall1 - wall0) / (double) n));
    }
    System.out.print(out);
  }
}
