package dev.phalanx.benchmarks.peers.ashley;

import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.EntitySystem;
import com.badlogic.ashley.core.PooledEngine;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents.Age;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents.Heat;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents.Position;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents.Scale;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents.Velocity;
import dev.phalanx.benchmarks.worlds.Sizes;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * An Ashley {@link PooledEngine} (the engine Ashley recommends to avoid garbage) whose entities
 * have the first {@code components} of Position, Velocity, Scale, Heat, Age, with the matching
 * {@code MoveN} system; {@code engine.update(DT)} runs it.
 */
public final class AshleyWorld {
  public int n;
  public PooledEngine engine;
  public Entity[] entities;

  public AshleyWorld(final int components, final BenchmarkParams params) {
    n = Sizes.entities(params);
    engine = new PooledEngine();
    engine.addSystem(system(components));
    entities = new Entity[n];
    for (int i = 0; i < n; i++) {
      entities[i] = create(engine, i, components);
    }
  }

  /** Creates entity {@code i} with the first {@code count} components and adds it to the engine. */
  public static Entity create(final PooledEngine engine, final int i, final int count) {
    final Entity e = engine.createEntity();
    final Position p = engine.createComponent(Position.class);
    p.x = Work.x(i);
    p.y = Work.x(i);
    e.add(p);
    if (count >= 2) {
      final Velocity v = engine.createComponent(Velocity.class);
      v.x = Work.v(i);
      v.y = Work.v(i);
      e.add(v);
    }
    if (count >= 3) {
      e.add(engine.createComponent(Scale.class));
    }
    if (count >= 4) {
      e.add(engine.createComponent(Heat.class));
    }
    if (count >= 5) {
      e.add(engine.createComponent(Age.class));
    }
    engine.addEntity(e);
    return e;
  }

  private static EntitySystem system(final int count) {
    switch (count) {
      case 1:
        return new AshleySystems.Move1();
      case 2:
        return new AshleySystems.Move2();
      case 3:
        return new AshleySystems.Move3();
      default:
        return new AshleySystems.Move5();
    }
  }
}
