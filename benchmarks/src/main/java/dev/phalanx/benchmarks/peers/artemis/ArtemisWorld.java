package dev.phalanx.benchmarks.peers.artemis;

import com.artemis.Archetype;
import com.artemis.ArchetypeBuilder;
import com.artemis.BaseSystem;
import com.artemis.Component;
import com.artemis.ComponentMapper;
import com.artemis.World;
import com.artemis.WorldConfigurationBuilder;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents.Age;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents.Heat;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents.Position;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents.Scale;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents.Velocity;
import dev.phalanx.benchmarks.worlds.Sizes;
import java.util.Arrays;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * An artemis-odb world whose entities have the first {@code components} of Position, Velocity,
 * Scale, Heat, Age, created from an {@link Archetype} (artemis's fast creation path), with the
 * matching {@code MoveN} system registered. {@code world.process()} runs the system.
 */
public final class ArtemisWorld {
  public int n;
  public World world;
  public int[] entities;

  public ArtemisWorld(final int components, final BenchmarkParams params) {
    n = Sizes.entities(params);
    world = new World(new WorldConfigurationBuilder().with(system(components)).build());
    world.setDelta(Work.DT);
    final Archetype archetype = archetype(world, components);
    final ComponentMapper<Position> positions = world.getMapper(Position.class);
    final ComponentMapper<Velocity> velocities = world.getMapper(Velocity.class);
    entities = new int[n];
    for (int i = 0; i < n; i++) {
      final int e = world.create(archetype);
      entities[i] = e;
      final Position p = positions.get(e);
      p.x = Work.x(i);
      p.y = Work.x(i);
      if (components >= 2) {
        final Velocity v = velocities.get(e);
        v.x = Work.v(i);
        v.y = Work.v(i);
      }
    }
    world.process(); // applies the creations to the subscriptions
  }

  public void dispose() {
    world.dispose();
  }

  /** Returns the archetype of the first {@code count} components. */
  @SuppressWarnings("unchecked")
  public static Archetype archetype(final World world, final int count) {
    final Class<? extends Component>[] all =
        new Class[] {Position.class, Velocity.class, Scale.class, Heat.class, Age.class};
    return new ArchetypeBuilder().add(Arrays.copyOf(all, count)).build(world);
  }

  private static BaseSystem system(final int count) {
    switch (count) {
      case 1:
        return new ArtemisSystems.Move1();
      case 2:
        return new ArtemisSystems.Move2();
      case 3:
        return new ArtemisSystems.Move3();
      default:
        return new ArtemisSystems.Move5();
    }
  }
}
