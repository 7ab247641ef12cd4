package dev.phalanx.benchmarks.peers.artemis;

import com.artemis.Aspect;
import com.artemis.ComponentMapper;
import com.artemis.systems.IteratingSystem;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents.Age;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents.Heat;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents.Position;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents.Scale;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents.Velocity;

/**
 * The work of {@link Work} as artemis-odb recommends writing it: an {@link IteratingSystem} over an
 * aspect, with {@link ComponentMapper} fields that the world injects, processing int entity ids.
 * The world runs it from {@code world.process()}.
 */
public final class ArtemisSystems {

  private ArtemisSystems() {}

  /** iterate1. */
  public static final class Move1 extends IteratingSystem {
    ComponentMapper<Position> mPosition;

    public Move1() {
      super(Aspect.all(Position.class));
    }

    @Override
    protected void process(final int entityId) {
      mPosition.get(entityId).x += 1f;
    }
  }

  /** iterate2. */
  public static final class Move2 extends IteratingSystem {
    ComponentMapper<Position> mPosition;
    ComponentMapper<Velocity> mVelocity;

    public Move2() {
      super(Aspect.all(Position.class, Velocity.class));
    }

    @Override
    protected void process(final int entityId) {
      final Position p = mPosition.get(entityId);
      final Velocity v = mVelocity.get(entityId);
      p.x += v.x * Work.DT;
      p.y += v.y * Work.DT;
    }
  }

  /** iterate3. */
  public static final class Move3 extends IteratingSystem {
    ComponentMapper<Position> mPosition;
    ComponentMapper<Velocity> mVelocity;
    ComponentMapper<Scale> mScale;

    public Move3() {
      super(Aspect.all(Position.class, Velocity.class, Scale.class));
    }

    @Override
    protected void process(final int entityId) {
      final Position p = mPosition.get(entityId);
      final Velocity v = mVelocity.get(entityId);
      final float s = mScale.get(entityId).s * Work.DT;
      p.x += v.x * s;
      p.y += v.y * s;
    }
  }

  /** iterate5. */
  public static final class Move5 extends IteratingSystem {
    ComponentMapper<Position> mPosition;
    ComponentMapper<Velocity> mVelocity;
    ComponentMapper<Scale> mScale;
    ComponentMapper<Heat> mHeat;
    ComponentMapper<Age> mAge;

    public Move5() {
      super(Aspect.all(Position.class, Velocity.class, Scale.class, Heat.class, Age.class));
    }

    @Override
    protected void process(final int entityId) {
      final Position p = mPosition.get(entityId);
      final Velocity v = mVelocity.get(entityId);
      final float s = mScale.get(entityId).s * Work.DT;
      p.x += v.x * s;
      p.y += v.y * s;
      mHeat.get(entityId).value += 1f;
      mAge.get(entityId).value += 1f;
    }
  }
}
