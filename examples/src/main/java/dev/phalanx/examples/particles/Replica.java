package dev.phalanx.examples.particles;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.AckedDeltaWriter;
import dev.phalanx.ecs.snapshot.DeltaLoader;
import dev.phalanx.ecs.snapshot.DeltaWriter;
import dev.phalanx.ecs.snapshot.SnapshotFormatException;

/**
 * A client's copy of a particle world, fed the simulation's deltas each frame ({@code --replica}):
 * a registry with the world's storages and no systems of its own, and the {@link DeltaLoader} that
 * applies what {@link #writer} sends. After each delta its {@link #checksum()} equals the world's.
 *
 * <p>Every particle moves and ages every frame, and the example's components are untracked, so
 * positions, velocities and lifetimes are opted in to be sent whole ({@link
 * DeltaWriter#everyValue}); attachments (the tails' relationships, whose targets the loader maps to
 * the replica's comets), tags and comets travel only when they are added, and the replica's
 * relation keeps each comet's tail as the attachments arrive and go. Such a delta is about as large
 * as a full snapshot: deltas pay off when little changes per frame, or for tracked components
 * ({@code benchmarks}' {@code ExampleWorldDelta} measures 1% of the world changing).
 */
public final class Replica {

  // The types a particle world streams to a replica (not its reactive bookkeeping).
  private static final ComponentType<?, ?>[] TYPES = {
    Position_Traits.TYPE,
    Velocity_Traits.TYPE,
    Lifetime_Traits.TYPE,
    Frozen_Traits.TYPE,
    Glowing_Traits.TYPE,
    Comet_Traits.TYPE,
    Attachment_Traits.TYPE
  };

  // Written in place every frame: sent whole each delta.
  private static final ComponentType<?, ?>[] EVERY_VALUE = {
    Position_Traits.TYPE, Velocity_Traits.TYPE, Lifetime_Traits.TYPE
  };

  // Never written in place once added: sent when added.
  private static final ComponentType<?, ?>[] WHEN_ADDED = {
    Frozen_Traits.TYPE, Glowing_Traits.TYPE, Comet_Traits.TYPE, Attachment_Traits.TYPE
  };

  private final Registry registry = new Registry();
  private final Storages storages = new Storages(registry);
  private final DeltaLoader loader = new DeltaLoader(registry);

  /**
   * Returns a writer of {@code world}'s deltas to one replica: the particle types, with the ones
   * every frame rewrites opted in to be sent whole.
   *
   * @param world the simulation
   * @return the writer (close it when the replica goes)
   */
  public static DeltaWriter writer(final World world) {
    return new DeltaWriter(world.registry())
        .types(TYPES)
        .everyValue(EVERY_VALUE)
        .whenAdded(WHEN_ADDED);
  }

  /**
   * Gives an acknowledged writer the types of {@link #writer}, sent the same way.
   *
   * @param writer a writer of the particle world, before its first write
   * @return the writer
   */
  public static AckedDeltaWriter configure(final AckedDeltaWriter writer) {
    return writer.types(TYPES).everyValue(EVERY_VALUE).whenAdded(WHEN_ADDED);
  }

  /**
   * Returns a writer of {@code world}'s deltas to one replica that sends only what a delta can see
   * change without opting in: entities born and dead, components added and removed (with their
   * values). Right for a world whose untracked components are not written in place between deltas;
   * the benchmarks use it for 1% of the world changing.
   *
   * @param world the simulation
   * @return the writer (close it when the replica goes)
   */
  public static DeltaWriter writerOfChanges(final World world) {
    return new DeltaWriter(world.registry()).types(TYPES).whenAdded(TYPES);
  }

  /**
   * Applies one delta.
   *
   * @param delta the bytes
   * @param length the delta's length
   * @throws SnapshotFormatException if it is not the next delta of this replica's writer
   */
  public void apply(final byte[] delta, final int length) throws SnapshotFormatException {
    loader.load(delta, length);
  }

  /** {@return the fingerprint of the replica's state, as {@link World#checksum()}} */
  public long checksum() {
    return World.checksum(storages);
  }

  /** {@return the replica's registry} */
  public Registry registry() {
    return registry;
  }

  /** {@return the loader, for its map from the world's entities to the replica's} */
  public DeltaLoader loader() {
    return loader;
  }
}
