package dev.phalanx.ecs;

/**
 * The storage traits of a component type: how many elements a payload page holds, how elements are
 * deleted, and whether instances are stored at all.
 *
 * @param pageSize elements per payload page; a power of two, at most {@link #MAX_PAGE_SIZE}.
 *     Elements never move between pages, so a larger page costs more memory for a few elements and
 *     fewer page hops for many
 * @param policy {@link DeletionPolicy#SWAP_AND_POP} or {@link DeletionPolicy#IN_PLACE}
 * @param empty whether the type is a tag: no payload is stored
 */
public record ComponentTraits(int pageSize, DeletionPolicy policy, boolean empty) {

  /** The default page size, as EnTT's: 1024 elements. */
  public static final int DEFAULT_PAGE_SIZE = 1024;

  /**
   * The largest page size: 65,536 elements. A payload page is allocated whole when its first
   * element arrives, so a larger page would cost megabytes per field for a handful of entities, and
   * a single allocation that size may fail; chunk loops gain nothing from pages beyond a few
   * thousand elements.
   */
  public static final int MAX_PAGE_SIZE = 1 << 16;

  /** Default traits: 1024-element pages, swap-and-pop, instances stored. */
  public static final ComponentTraits DEFAULT =
      new ComponentTraits(DEFAULT_PAGE_SIZE, DeletionPolicy.SWAP_AND_POP, false);

  /** Traits of a tag type: no payload, swap-and-pop. */
  public static final ComponentTraits TAG =
      new ComponentTraits(DEFAULT_PAGE_SIZE, DeletionPolicy.SWAP_AND_POP, true);

  /**
   * Validates the traits.
   *
   * @param pageSize elements per payload page; a power of two, at most {@link #MAX_PAGE_SIZE}
   * @param policy {@link DeletionPolicy#SWAP_AND_POP} or {@link DeletionPolicy#IN_PLACE}
   * @param empty whether the type is a tag: no payload is stored
   * @throws IllegalArgumentException if the page size is not a power of two in {@code [1,
   *     MAX_PAGE_SIZE]} or the policy is {@link DeletionPolicy#SWAP_ONLY}
   */
  public ComponentTraits {
    if (pageSize <= 0 || pageSize > MAX_PAGE_SIZE || 0 != (pageSize & (pageSize - 1))) {
      throw new IllegalArgumentException(
          "page size must be a power of two from 1 to "
              + MAX_PAGE_SIZE
              + " (a page is allocated whole"
              + " on first use), got "
              + pageSize);
    }
    if (null == policy || DeletionPolicy.SWAP_ONLY == policy) {
      throw new IllegalArgumentException(
          "component storages take SWAP_AND_POP or IN_PLACE deletion, got " + policy);
    }
  }

  /**
   * {@return these traits with another deletion policy}
   *
   * @param newPolicy the deletion policy of the copy
   */
  public ComponentTraits withPolicy(final DeletionPolicy newPolicy) {
    return new ComponentTraits(pageSize, newPolicy, empty);
  }

  /**
   * {@return these traits with another page size}
   *
   * @param newPageSize the page size of the copy
   */
  public ComponentTraits withPageSize(final int newPageSize) {
    return new ComponentTraits(newPageSize, policy, empty);
  }
}
