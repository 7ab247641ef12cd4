package dev.phalanx.benchmarks.peers.ashley;

import com.badlogic.ashley.core.ComponentMapper;
import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.Family;
import com.badlogic.ashley.systems.IteratingSystem;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents.Age;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents.Heat;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents.Position;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents.Scale;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents.Velocity;

/**
 * The work as Ashley's wiki recommends it: an {@link IteratingSystem} over a {@link Family}, with
 * {@link ComponentMapper}s for O(1) component access; the engine runs it from {@code
 * engine.update(dt)}.
 */
public final class AshleySystems {

  private static final ComponentMapper<Position> POSITION = ComponentMapper.getFor(Position.class);
  private static final ComponentMapper<Velocity> VELOCITY = ComponentMapper.getFor(Velocity.class);
  private static final ComponentMapper<Scale> SCALE = ComponentMapper.getFor(Scale.class);
  private static final ComponentMapper<Heat> HEAT = ComponentMapper.getFor(Heat.class);
  private static final ComponentMapper<Age> AGE = ComponentMapper.getFor(Age.class);

  private AshleySystems() {}

  /** iterate1. */
  public static final class Move1 extends IteratingSystem {
    public Move1() {
      super(Family.all(Position.class).get());
    }

    @Override
    protected void processEntity(final Entity entity, final float deltaTime) {
      POSITION.get(entity).x += 1f;
    }
  }

  /** iterate2. */
  public static final class Move2 extends IteratingSystem {
    public Move2() {
      super(Family.all(Position.class, Velocity.class).get());
    }

    @Override
    protected void processEntity(final Entity entity, final float deltaTime) {
      final Position p = POSITION.get(entity);
      final Velocity v = VELOCITY.get(entity);
      p.x += v.x * deltaTime;
      p.y += v.y * deltaTime;
    }
  }

  /** iterate3. */
  public static final class Move3 extends IteratingSystem {
    public Move3() {
      super(Family.all(Position.class, Velocity.class, Scale.class).get());
    }

    @Override
    protected void processEntity(final Entity entity, final float deltaTime) {
      final Position p = POSITION.get(entity);
      final Velocity v = VELOCITY.get(entity);
      final float s = SCALE.get(entity).s * deltaTime;
      p.x += v.x * s;
      p.y += v.y * s;
    }
  }

  /** iterate5. */
  public static final class Move5 extends IteratingSystem {
    public Move5() {
      super(Family.all(Position.class, Velocity.class, Scale.class, Heat.class, Age.class).get());
    }

    @Override
    protected void processEntity(final Entity entity, final float deltaTime) {
      final Position p = POSITION.get(entity);
      final Velocity v = VELOCITY.get(entity);
      final float s = SCALE.get(entity).s * deltaTime;
      p.x += v.x * s;
      p.y += v.y * s;
      HEAT.get(entity).value += 1f;
      AGE.get(entity).value += 1f;
    }
  }
}
