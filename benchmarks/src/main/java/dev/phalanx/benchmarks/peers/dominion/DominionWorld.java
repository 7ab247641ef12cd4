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
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A Dominion whose entities have the first {@code components} of Position, Velocity, Scale, Heat,
 * Age (plain objects, as Dominion takes any POJO), created with a prepared composition, the
 * creation path Dominion's API documentation offers for many entities of one shape.
 */
@State(Scope.Benchmark)
public abstract class DominionWorld {
  public int n;
  public Dominion dominion;
  public Entity[] entities;
  private final int components;

  protected DominionWorld(final int components) {
    this.components = components;
  }

  @Setup(Level.Trial)
  public void setup(final BenchmarkParams params) {
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

  @TearDown(Level.Trial)
  public void tearDown() {
    dominion.close();
  }

  @State(Scope.Benchmark)
  public static class With1 extends DominionWorld {
    public With1() {
      super(1);
    }
  }

  @State(Scope.Benchmark)
  public static class With2 extends DominionWorld {
    public With2() {
      super(2);
    }
  }

  @State(Scope.Benchmark)
  public static class With3 extends DominionWorld {
    public With3() {
      super(3);
    }
  }

  @State(Scope.Benchmark)
  public static class With5 extends DominionWorld {
    public With5() {
      super(5);
    }
  }
}
