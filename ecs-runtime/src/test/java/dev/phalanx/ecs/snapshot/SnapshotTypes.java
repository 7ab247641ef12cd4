package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;

/**
 * The types of a saved registry's storages, for tests that give them to a loader: a stream may name
 * only the types the loader was given or the target already has a storage of.
 */
final class SnapshotTypes {

  private SnapshotTypes() {}

  /** {@return the type of every storage of {@code saved}} */
  static ComponentType<?, ?>[] of(final Registry saved) {
    final ComponentType<?, ?>[] types = new ComponentType<?, ?>[saved.storageCount()];
    for (int i = 0; i < types.length; i++) {
      types[i] = saved.storageAt(i).type();
    }
    return types;
  }
}
