package dev.phalanx.benchmarks.structural;

import com.artemis.Archetype;
import com.artemis.ComponentMapper;
import com.artemis.WorldConfigurationBuilder;
import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.PooledEngine;
import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents;
import dev.phalanx.benchmarks.peers.artemis.ArtemisWorld;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents;
import dev.phalanx.ecs.Registry;

/**
 * Worlds of n entities with a Position and a Velocity, one per library, that the structural
 * workloads change and then restore before the next shot, reusing component objects where the
 * library lets them (so the set-up allocates little after the first shot).
 */
final class Worlds2 {

  private Worlds2() {}

  /**
   * A world of n entities that a shot changes: {@link #ready} readies it for the next shot,
   * whatever the last one did, recreating the entities if it destroyed them, else giving back the
   * components it removed.
   */
  abstract static class Ready {
    final int n;

    Ready(final int n) {
      this.n = n;
    }

    /**
     * Creates the n entities (recycling identifiers after the first time) with their components.
     */
    abstract void recreate();

    /** Gives back the components that a shot removed. */
    abstract void restore();

    /** {@return whether the last shot destroyed the entities} */
    abstract boolean destroyed();

    final void ready() {
      if (destroyed()) {
        recreate();
      } else {
        restore();
      }
    }
  }

  /**
   * Phalanx with the generated struct-of-arrays storages: components are written field by field
   * with the typed {@code emplace(e, x, y)}, so no component object exists and the set-up allocates
   * nothing after the storages have grown.
   */
  static final class Phalanx extends Ready {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final long[] entities;

    Phalanx(final int n) {
      super(n);
      entities = new long[n];
      recreate();
    }

    @Override
    void recreate() {
      for (int i = 0; i < n; i++) {
        final long e = registry.create();
        entities[i] = e;
        positions.emplace(e, Work.x(i), Work.x(i));
        velocities.emplace(e, Work.v(i), Work.v(i));
      }
    }

    @Override
    void restore() {
      for (int i = 0; i < n; i++) {
        final long e = entities[i];
        if (!positions.contains(e)) {
          positions.emplace(e, Work.x(i), Work.x(i));
        }
        if (!velocities.contains(e)) {
          velocities.emplace(e, Work.v(i), Work.v(i));
        }
      }
    }

    @Override
    boolean destroyed() {
      return !registry.valid(entities[0]);
    }
  }

  static final class Artemis extends Ready {
    final com.artemis.World world = new com.artemis.World(new WorldConfigurationBuilder().build());
    final Archetype archetype = ArtemisWorld.archetype(world, 2);
    final ComponentMapper<ArtemisComponents.Position> positions =
        world.getMapper(ArtemisComponents.Position.class);
    final ComponentMapper<ArtemisComponents.Velocity> velocities =
        world.getMapper(ArtemisComponents.Velocity.class);
    final ComponentMapper<ArtemisComponents.Marker> markers =
        world.getMapper(ArtemisComponents.Marker.class);
    final int[] entities;

    Artemis(final int n) {
      super(n);
      entities = new int[n];
      recreate();
    }

    @Override
    void recreate() {
      for (int i = 0; i < n; i++) {
        final int e = world.create(archetype);
        entities[i] = e;
        positions.get(e).x = Work.x(i);
        velocities.get(e).x = Work.v(i);
      }
      world.process();
    }

    @Override
    void restore() {
      for (int i = 0; i < n; i++) {
        final int e = entities[i];
        if (!positions.has(e)) {
          positions.create(e).x = Work.x(i);
        }
        if (!velocities.has(e)) {
          velocities.create(e).x = Work.v(i);
        }
      }
      world.process();
    }

    @Override
    boolean destroyed() {
      return !world.getEntityManager().isActive(entities[0]);
    }
  }

  static final class Dominion2 extends Ready {
    final Dominion dominion = Dominion.create();
    final Composition.Of2<Position, Velocity> shape =
        dominion.composition().of(Position.class, Velocity.class);
    final dev.dominion.ecs.api.Entity[] entities;
    final Position[] positions;
    final Velocity[] velocities;

    Dominion2(final int n) {
      super(n);
      entities = new dev.dominion.ecs.api.Entity[n];
      positions = new Position[n];
      velocities = new Velocity[n];
      for (int i = 0; i < n; i++) {
        positions[i] = new Position();
        positions[i].x = Work.x(i);
        velocities[i] = new Velocity();
        velocities[i].x = Work.v(i);
      }
      recreate();
    }

    @Override
    void recreate() {
      for (int i = 0; i < n; i++) {
        entities[i] = dominion.createPreparedEntity(shape.withValue(positions[i], velocities[i]));
      }
    }

    @Override
    void restore() {
      for (int i = 0; i < n; i++) {
        final dev.dominion.ecs.api.Entity e = entities[i];
        if (!e.has(Position.class)) {
          e.add(positions[i]);
        }
        if (!e.has(Velocity.class)) {
          e.add(velocities[i]);
        }
      }
    }

    @Override
    boolean destroyed() {
      return entities[0].isDeleted();
    }
  }

  static final class Ashley extends Ready {
    final PooledEngine engine = new PooledEngine();
    final Entity[] entities;

    Ashley(final int n) {
      super(n);
      entities = new Entity[n];
      recreate();
    }

    @Override
    void recreate() {
      for (int i = 0; i < n; i++) {
        final Entity e = engine.createEntity();
        final AshleyComponents.Position p = engine.createComponent(AshleyComponents.Position.class);
        p.x = Work.x(i);
        e.add(p);
        final AshleyComponents.Velocity v = engine.createComponent(AshleyComponents.Velocity.class);
        v.x = Work.v(i);
        e.add(v);
        engine.addEntity(e);
        entities[i] = e;
      }
    }

    @Override
    void restore() {
      for (int i = 0; i < n; i++) {
        final Entity e = entities[i];
        if (null == e.getComponent(AshleyComponents.Position.class)) {
          e.add(engine.createComponent(AshleyComponents.Position.class));
        }
        if (null == e.getComponent(AshleyComponents.Velocity.class)) {
          e.add(engine.createComponent(AshleyComponents.Velocity.class));
        }
      }
    }

    @Override
    boolean destroyed() {
      return 0 == engine.getEntities().size();
    }
  }
}
