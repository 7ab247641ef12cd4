package dev.phalanx.ecs;

/**
 * Static helpers for entity handles: an entity is a plain {@code long}, never an object.
 *
 * <h2>Bit layout</h2>
 *
 * <pre>
 *  63                              32 31                               0
 * +----------------------------------+----------------------------------+
 * |          version (32 bits)       |           index (32 bits)        |
 * +----------------------------------+----------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>The <b>index</b> identifies a slot in the registry and in every sparse array; {@code (int)
 *       e} extracts it without masking. Valid indices are {@code [0, MAX_INDEX]}: Java arrays are
 *       {@code int}-indexed, so the practical ceiling is about 2<sup>31</sup>, far above the
 *       2<sup>20</sup> that EnTT's 32-bit handles allow.
 *   <li>The <b>version</b> counts how many times the slot was recycled. It is bumped each time the
 *       entity is destroyed, so a stale handle never compares equal to the live one. With 32 bits a
 *       slot can be recycled four billion times before a stale handle could alias a live one
 *       (EnTT's 32-bit handles wrap after 4096, and LIFO recycling concentrates reuse on the same
 *       slots).
 *   <li>{@link #NULL} has every index bit set: no live entity equals it. A packed slot whose
 *       version is {@link #TOMBSTONE_VERSION} is a hole left by in-place deletion; live versions
 *       skip that value.
 * </ul>
 *
 * <p>Why 64 bits and not EnTT's 32: safety (long-lived references to entities are a core request of
 * Phalanx users) and head-room (10M-entity worlds). The price is 4 more bytes per element in each
 * packed array; iteration over owned groups never reads entities at all, so it does not pay it.
 */
public final class Entity {

  /** Number of bits of the index part. */
  public static final int INDEX_BITS = 32;

  /** Number of bits of the version part. */
  public static final int VERSION_BITS = 32;

  /** The index value reserved for {@link #NULL}; no entity ever has it. */
  public static final int NULL_INDEX = -1;

  /** The largest index an entity can have (bounded by Java's array size limit). */
  public static final int MAX_INDEX = Integer.MAX_VALUE - 16;

  /** The version value that marks a tombstone (a hole in an in-place storage); never live. */
  public static final int TOMBSTONE_VERSION = -1;

  /** The null entity: all bits set. It is never valid and never contained in a set. */
  public static final long NULL = -1L;

  private static final long INDEX_MASK = 0xFFFF_FFFFL;

  private Entity() {}

  /**
   * Builds a handle from its parts.
   *
   * @param index the slot, {@code [0, MAX_INDEX]} for a real entity
   * @param version the version; {@link #TOMBSTONE_VERSION} only for tombstones
   * @return the handle
   */
  public static long of(final int index, final int version) {
    return ((long) version << INDEX_BITS) | (index & INDEX_MASK);
  }

  /**
   * {@return the index part of {@code entity}}
   *
   * @param entity a handle
   */
  public static int index(final long entity) {
    return (int) entity;
  }

  /**
   * {@return the version part of {@code entity}}
   *
   * @param entity a handle
   */
  public static int version(final long entity) {
    return (int) (entity >>> INDEX_BITS);
  }

  /**
   * {@return whether {@code entity} is the null handle (its index bits are all set)}
   *
   * @param entity a handle
   */
  public static boolean isNull(final long entity) {
    return NULL_INDEX == (int) entity;
  }

  /**
   * {@return whether {@code entity} is a tombstone (its version bits are all set)}
   *
   * @param entity a handle
   */
  public static boolean isTombstone(final long entity) {
    return TOMBSTONE_VERSION == (int) (entity >>> INDEX_BITS);
  }

  /**
   * {@return the version that follows {@code version} when a slot is recycled} It wraps from the
   * largest value to 0 and skips {@link #TOMBSTONE_VERSION}.
   *
   * @param version the slot's current version
   */
  public static int nextVersion(final int version) {
    final int next = version + 1;
    return TOMBSTONE_VERSION == next ? 0 : next;
  }

  /**
   * Formats a handle for messages, for example {@code Entity(index=3, version=1)}. Used by every
   * exception that names an entity.
   *
   * @param entity a handle, possibly {@link Entity#NULL} or a tombstone
   * @return the description
   */
  public static String toString(final long entity) {
    if (isNull(entity)) {
      return "Entity(null)";
    }
    return "Entity(index="
        + index(entity)
        + ", version="
        + Integer.toUnsignedString(version(entity))
        + ")";
  }
}
