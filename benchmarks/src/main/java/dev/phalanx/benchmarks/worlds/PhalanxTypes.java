package dev.phalanx.benchmarks.worlds;

import dev.phalanx.benchmarks.model.Age;
import dev.phalanx.benchmarks.model.Heat;
import dev.phalanx.benchmarks.model.Marker;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Scale;
import dev.phalanx.benchmarks.model.StablePosition;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.storage.ComponentTraits;
import dev.phalanx.ecs.storage.DeletionPolicy;
import dev.phalanx.ecs.storage.ObjectStorage;

/**
 * Phalanx component keys of the benchmarks, kept in {@code static final} fields as the runtime's
 * documentation asks. Today every type uses an object storage (one reference per element); the
 * generated struct-of-arrays storages get their own component classes and workloads.
 */
public final class PhalanxTypes {

  public static final ComponentType<Position, ObjectStorage<Position>> POSITION = ComponentType.object(Position.class);
  public static final ComponentType<Velocity, ObjectStorage<Velocity>> VELOCITY = ComponentType.object(Velocity.class);
  public static final ComponentType<Scale, ObjectStorage<Scale>> SCALE = ComponentType.object(Scale.class);
  public static final ComponentType<Heat, ObjectStorage<Heat>> HEAT = ComponentType.object(Heat.class);
  public static final ComponentType<Age, ObjectStorage<Age>> AGE = ComponentType.object(Age.class);
  public static final ComponentType<Marker, ObjectStorage<Marker>> MARKER = ComponentType.object(Marker.class);
  public static final ComponentType<StablePosition, ObjectStorage<StablePosition>> STABLE_POSITION =
      ComponentType.object(StablePosition.class, ComponentTraits.DEFAULT.withPolicy(DeletionPolicy.IN_PLACE));

  private PhalanxTypes() {}
}
