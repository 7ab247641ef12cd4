package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.RegistryImage;
import java.io.IOException;
import java.lang.reflect.Array;
import java.util.List;
import java.util.Map;

/**
 * A snapshot read whole into memory and checked, before a loader changes anything: the staging area
 * of {@link SnapshotLoader} and {@link ContinuousLoader}. Reading resolves every storage's type,
 * matches the file's fields with the type's by name (a field the file lacks is left out and gets
 * the default at commit; a field the type lacks is skipped; a field whose type changed is refused),
 * reads each kept field into one flat array, and checks every count and identifier. Any problem
 * throws {@link SnapshotFormatException} naming the byte offset, the storage and the field.
 */
final class StagedSnapshot {

  /** One storage of the snapshot. */
  static final class StagedStorage {
    final ComponentType<?, ?> type;
    final String key;
    final long[] packed;
    final int size;
    final int firstHole;
    final Map<String, StagedColumn> columns;
    // When > 0, every column holds whole pages of this size that the storage adopts; else flat.
    final int pageSize;

    StagedStorage(
        final ComponentType<?, ?> type,
        final String key,
        final long[] packed,
        final int size,
        final int firstHole,
        final Map<String, StagedColumn> columns,
        final int pageSize) {
      this.type = type;
      this.key = key;
      this.packed = packed;
      this.size = size;
      this.firstHole = firstHole;
      this.columns = columns;
      this.pageSize = pageSize;
    }
  }

  /**
   * One kept field: its values at positions {@code [0, size)}, either in a flat array ({@code
   * float[]}, {@code Object[]}, ...; {@code pageSize == 0}) or in whole pages ({@code float[][]},
   * ...; each of {@code pageSize} elements, the last one padded with zeros).
   */
  record StagedColumn(String name, byte code, Object data, int pageSize) {

    /** {@return the values in one flat array, copying pages if the column is paged} */
    Object flat(final int size) {
      if (0 == pageSize) {
        return data;
      }
      final Object[] pages = (Object[]) data;
      final Object flat =
          Array.newInstance(pages.getClass().getComponentType().getComponentType(), size);
      for (int from = 0, page = 0; from < size; from += pageSize, page++) {
        System.arraycopy(pages[page], 0, flat, from, Math.min(pageSize, size - from));
      }
      return flat;
    }
  }

  final boolean full;

  final long[] entities;

  final int entityCount;

  final int alive;

  // Full snapshots: the checked image a whole load restores (its values given only when staged
  // for a restore); null for partial ones.
  final RegistryImage image;

  final Map<String, byte[]> extras;

  final List<StagedStorage> storages;

  StagedSnapshot(
      final boolean full,
      final long[] entities,
      final int entityCount,
      final int alive,
      final RegistryImage image,
      final Map<String, byte[]> extras,
      final List<StagedStorage> storages) {
    this.full = full;
    this.entities = entities;
    this.entityCount = entityCount;
    this.alive = alive;
    this.image = image;
    this.extras = extras;
    this.storages = storages;
  }

  /** Returns whether the snapshot holds the storage of {@code type}. */
  boolean has(final ComponentType<?, ?> type) {
    for (final StagedStorage storage : storages) {
      if (storage.type == type) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reads and checks a whole snapshot, section by section in stream order: the header, the
   * entities, the extra blocks, each storage section (its key, deletion policy, field headers,
   * elements and holes, then its fields), and the end marker.
   *
   * @param in the stream
   * @param target the registry it will go into (its storages give the types' current fields)
   * @param codecs the codecs of reference types
   * @param types types by key (given and aliases), looked up before the target's storages
   */
  static StagedSnapshot read(
      final BinaryInput<IOException> in,
      final Registry target,
      final Map<Class<?>, ValueCodec<?>> codecs,
      final Map<String, ComponentType<?, ?>> types,
      final boolean paged)
      throws IOException {
    return new SnapshotReader(in, target, codecs, types, paged).read();
  }
}
