package dev.phalanx.ecs.command;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.util.Arrays;

/**
 * One buffer's table of the component types its commands name, by dense type id: commands store
 * ids, not references. For each type recorded typed (a generated storage's field recording) it
 * keeps the sizes of the payload, in words and references, so that apply can pass over the payload
 * of a skipped command, and so that every typed recording of one type has the same sizes (checked
 * by {@link #checkedId}). The registry's storage of each type is cached as commands are applied (a
 * registry never changes a type's storage).
 *
 * <p>Growing is all or nothing: {@link #checkedId} grows every table before anything is written, so
 * that {@link #remember} cannot fail.
 */
final class CommandTypes {

  // Ids reach at most this, the type bits of a command's code: NO_TYPE marks a command without one.
  private final int noType;
  // The types by dense id.
  private ComponentType<?, ?>[] types = new ComponentType<?, ?>[16];
  // The registry's storages by type id, filled as commands are applied (a storage never changes).
  private Storage<?>[] storages = new Storage<?>[16];
  // How many words and references a typed recording of each type (by id) holds, given by the
  // generated storage when it records: a skipped command's payload is passed over by them.
  private int[] fieldWords = unknownSizes(16);
  private int[] fieldRefs = unknownSizes(16);
  // By type id, the sizes as shape(words, refs) once recorded typed, else -1: beginFields' one
  // check.
  private long[] fieldShapes = unknownShapes(16);

  CommandTypes(final int noType) {
    this.noType = noType;
  }

  /** {@return the sizes of a typed recording, as kept in fieldShapes} */
  static long shape(final int wordCount, final int refCount) {
    return (long) wordCount << 32 | (refCount & 0xFFFF_FFFFL);
  }

  /**
   * {@return whether type {@code id} was recorded typed before with these sizes} That implies the
   * table holds its type: ids are unique in the JVM.
   */
  boolean hasShape(final int id, final int wordCount, final int refCount) {
    final long[] shapes = fieldShapes;
    return id < shapes.length && shapes[id] == shape(wordCount, refCount);
  }

  /** {@return the type of dense id {@code id}, which a command of this buffer names} */
  ComponentType<?, ?> type(final int id) {
    return types[id];
  }

  /** {@return the number of words of a typed recording of type {@code id}} */
  int words(final int id) {
    return fieldWords[id];
  }

  /** {@return the number of references of a typed recording of type {@code id}} */
  int refs(final int id) {
    return fieldRefs[id];
  }

  /** Returns {@code registry}'s storage of the type with dense id {@code id}, cached. */
  Storage<?> storage(final Registry registry, final int id) {
    if (id >= storages.length) {
      storages = Arrays.copyOf(storages, types.length);
    }
    Storage<?> storage = storages[id];
    if (null == storage) {
      storage = registry.storage(types[id]);
      storages[id] = storage;
    }
    return storage;
  }

  /**
   * Returns the id of {@code type}, growing the tables by type id. For a typed recording ({@code
   * typed}), checks that its sizes are those of the type's earlier typed recordings; {@code buffer}
   * names the recording buffer in messages.
   */
  int checkedId(
      final ComponentType<?, ?> type,
      final boolean typed,
      final int words,
      final int refs,
      final Object buffer) {
    final int id = type.id();
    if (id >= noType) {
      throw new IllegalStateException(
          "more than " + noType + " component types: command buffers cannot record them");
    }
    if (typed && (words < 0 || refs < 0)) {
      throw new IllegalArgumentException(
          "cannot record a typed "
              + type.name()
              + " of "
              + words
              + " word(s) and "
              + refs
              + " reference(s) in "
              + buffer
              + ": sizes cannot be negative");
    }
    if (id >= types.length) {
      grow(Math.max(id + 1, types.length * 2));
    }
    if (typed && fieldWords[id] >= 0 && (fieldWords[id] != words || fieldRefs[id] != refs)) {
      throw new IllegalArgumentException(
          "cannot record a typed "
              + type.name()
              + " of "
              + words
              + " word(s) and "
              + refs
              + " reference(s) in "
              + buffer
              + ": the type's typed recordings take "
              + fieldWords[id]
              + " and "
              + fieldRefs[id]);
    }
    return id;
  }

  /**
   * Writes what a recorded command of {@code type} (its id checked by {@link #checkedId}) teaches
   * the table: the type, and for a typed recording its sizes. Cannot fail.
   */
  void remember(
      final int id,
      final ComponentType<?, ?> type,
      final boolean typed,
      final int words,
      final int refs) {
    types[id] = type;
    if (typed) {
      fieldWords[id] = words;
      fieldRefs[id] = refs;
      fieldShapes[id] = shape(words, refs);
    }
  }

  /** Grows every table to {@code length}, allocating all of them before replacing any. */
  private void grow(final int length) {
    final ComponentType<?, ?>[] grownTypes = Arrays.copyOf(types, length);
    final int[] wordSizes = grownSizes(fieldWords, length);
    final int[] refSizes = grownSizes(fieldRefs, length);
    final long[] shapes = unknownShapes(length);
    System.arraycopy(fieldShapes, 0, shapes, 0, fieldShapes.length);
    types = grownTypes;
    fieldShapes = shapes;
    fieldWords = wordSizes;
    fieldRefs = refSizes;
  }

  private static int[] unknownSizes(final int length) {
    final int[] sizes = new int[length];
    Arrays.fill(sizes, -1);
    return sizes;
  }

  private static long[] unknownShapes(final int length) {
    final long[] shapes = new long[length];
    Arrays.fill(shapes, -1L);
    return shapes;
  }

  private static int[] grownSizes(final int[] sizes, final int length) {
    final int[] grown = unknownSizes(length);
    System.arraycopy(sizes, 0, grown, 0, sizes.length);
    return grown;
  }
}
