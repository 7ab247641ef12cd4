package dev.phalanx.benchmarks.worlds;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Age;
import dev.phalanx.benchmarks.model.Heat;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Scale;
import dev.phalanx.benchmarks.model.Velocity;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The array-of-small-objects baseline: one array of component objects per type, indexed by entity.
 * The objects of one entity are allocated together, entity after entity, as an object-storage ECS
 * would allocate them while creating entities.
 */
public final class ObjectArrays {
  public int n;
  public Position[] positions;
  public Velocity[] velocities;
  public Scale[] scales;
  public Heat[] heats;
  public Age[] ages;

  public ObjectArrays(final BenchmarkParams params) {
    n = Sizes.entities(params);
    positions = new Position[n];
    velocities = new Velocity[n];
    scales = new Scale[n];
    heats = new Heat[n];
    ages = new Age[n];
    for (int i = 0; i < n; i++) {
      final Position p = new Position();
      p.x = Work.x(i);
      p.y = Work.x(i);
      positions[i] = p;
      final Velocity v = new Velocity();
      v.x = Work.v(i);
      v.y = Work.v(i);
      velocities[i] = v;
      scales[i] = new Scale();
      heats[i] = new Heat();
      ages[i] = new Age();
    }
  }
}
