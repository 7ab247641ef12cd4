package dev.phalanx.benchmarks.worlds;

import dev.phalanx.benchmarks.Work;
import org.openjdk.jmh.infra.BenchmarkParams;

/** The limit: one plain {@code float[]} per field, indexed by entity, no ECS at all. */
public final class FloatArrays {
  public int n;
  public float[] px;
  public float[] py;
  public float[] vx;
  public float[] vy;
  public float[] scale;
  public float[] heat;
  public float[] age;

  public FloatArrays(final BenchmarkParams params) {
    n = Sizes.entities(params);
    px = new float[n];
    py = new float[n];
    vx = new float[n];
    vy = new float[n];
    scale = new float[n];
    heat = new float[n];
    age = new float[n];
    for (int i = 0; i < n; i++) {
      px[i] = Work.x(i);
      py[i] = Work.x(i);
      vx[i] = Work.v(i);
      vy[i] = Work.v(i);
      scale[i] = 1f;
    }
  }
}
