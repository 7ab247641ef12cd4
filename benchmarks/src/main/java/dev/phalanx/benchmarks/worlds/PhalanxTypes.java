package dev.phalanx.benchmarks.worlds;

import dev.phalanx.benchmarks.model.Age;
import dev.phalanx.benchmarks.model.Heat;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Scale;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.ObjectStorage;

/**
 * Object-storage keys (one reference per element) of the plain model classes, for the "Phalanx,
 * object storage" row only. Every other Phalanx row uses the generated struct-of-arrays storages of
 * {@code dev.phalanx.benchmarks.components} ({@code Position_Traits.TYPE}...).
 */
public final class PhalanxTypes {

  public static final ComponentType<Position, ObjectStorage<Position>> POSITION =
      ComponentType.object(Position.class);
  public static final ComponentType<Velocity, ObjectStorage<Velocity>> VELOCITY =
      ComponentType.object(Velocity.class);
  public static final ComponentType<Scale, ObjectStorage<Scale>> SCALE =
      ComponentType.object(Scale.class);
  public static final ComponentType<Heat, ObjectStorage<Heat>> HEAT =
      ComponentType.object(Heat.class);
  public static final ComponentType<Age, ObjectStorage<Age>> AGE = ComponentType.object(Age.class);

  private PhalanxTypes() {}
}
