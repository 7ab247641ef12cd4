package dev.phalanx.benchmarks.peers.dominion;

import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Age;
import dev.phalanx.benchmarks.model.Heat;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Scale;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.worlds.Sizes;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A Dominion whose entities have the first {@code components} of Position, Velocity, Scale, Heat,
 * Age (plain objects, as Dominion takes any POJO), created with a prepared composition, the
 * creation path Dominion's API documentation offers for many entities of one shape.
 */
public final class DominionWorld {
  public int n;
  public Dominion dominion;
  public Entity[] entities;

  public DominionWorld(final int components, final BenchmarkParams params) {
    n = Sizes.entities(params);
    dominion = Dominion.create();
    entities = new Entity[n];
    final Composition composition = dominion.composition();
    final var of1 = composition.of(Position.class);
    final var of2 = composition.of(Position.class, Velocity.class);
    final var of3 = composition.of(Position.class, Velocity.class, Scale.class);
    final var of5 =
        composition.of(Position.class, Velocity.class, Scale.class, Heat.class, Age.class);
    for (int i = 0; i < n; i++) {
      final Position p = new Position();
      p.x = Work.x(i);
      p.y = Work.x(i);
      final Velocity v = new Velocity();
      v.x = Work.v(i);
      v.y = Work.v(i);
      switch (components) {
        case 1:
          entities[i] = dominion.createPreparedEntity(of1.withValue(p));
          break;
        case 2:
          entities[i] = dominion.createPreparedEntity(of2.withValue(p, v));
          break;
        case 3:
          entities[i] = dominion.createPreparedEntity(of3.withValue(p, v, new Scale()));
          break;
        default:
          entities[i] =
              dominion.createPreparedEntity(
                  of5.withValue(p, v, new Scale(), new Heat(), new Age()));
          break;
      }
    }
  }

  public void close() {
    dominion.close();
  }
}
