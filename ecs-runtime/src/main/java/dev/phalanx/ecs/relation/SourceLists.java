package dev.phalanx.ecs.relation;

import dev.phalanx.ecs.Entity;
import java.util.Arrays;

/**
 * The reverse side of one relationship kind: for each target, the intrusive doubly linked list of
 * its sources, in the order they were linked; for each source, the target it is linked to. All of
 * it is kept in pages of flat arrays indexed by entity index (not by storage position), so sorting
 * or compacting the kind's storage moves nothing here, and a lookup is two array reads.
 *
 * <p>Invariants kept by {@link #link} and {@link #cut} (callers check the entities first): a source
 * is in the list of exactly the target it is linked to; previous and next links are symmetric; a
 * target's count is its list's length and its first and last name the list's ends; an index that is
 * neither linked nor a target holds {@link Entity#NULL} and 0 everywhere. These methods allocate
 * nothing once the pages they touch exist, and publish nothing.
 */
final class SourceLists {

  private static final int PAGE_SHIFT = 12;
  private static final int PAGE_SIZE = 1 << PAGE_SHIFT;
  private static final int PAGE_MASK = PAGE_SIZE - 1;
  private static final long[] NO_LINKS = newLinks();
  private static final int[] NO_COUNTS = new int[PAGE_SIZE];

  // As a target: the first and last source and their number; as a source: its target and its
  // neighbours in that target's list. Pages not yet written are shared, read-only NO_LINKS pages.
  private long[][] firsts = new long[0][];
  private long[][] lasts = new long[0][];
  private int[][] counts = new int[0][];
  private long[][] targets = new long[0][];
  private long[][] previouses = new long[0][];
  private long[][] nexts = new long[0][];
  // Every source linked now.
  private int linked;

  private static long[] newLinks() {
    final long[] page = new long[PAGE_SIZE];
    Arrays.fill(page, Entity.NULL);
    return page;
  }

  /** {@return the number of sources linked now, over every target} */
  int linked() {
    return linked;
  }

  /** {@return the target {@code source} is linked to, or {@link Entity#NULL}} */
  long targetOf(final long source) {
    return read(targets, Entity.index(source));
  }

  /** {@return the first source of {@code target}, or {@link Entity#NULL}} */
  long firstOf(final long target) {
    return read(firsts, Entity.index(target));
  }

  /** {@return the source linked after {@code source} to the same target, or {@link Entity#NULL}} */
  long nextOf(final long source) {
    return read(nexts, Entity.index(source));
  }

  /**
   * {@return the source linked before {@code source} to the same target, or {@link Entity#NULL}}
   */
  long previousOf(final long source) {
    return read(previouses, Entity.index(source));
  }

  /** {@return the last source of {@code target}, or {@link Entity#NULL}} */
  long lastOf(final long target) {
    return read(lasts, Entity.index(target));
  }

  /** {@return how many sources {@code target} has} */
  int countOf(final long target) {
    final int index = Entity.index(target);
    final int page = index >>> PAGE_SHIFT;
    return page < counts.length ? counts[page][index & PAGE_MASK] : 0;
  }

  /** Appends the unlinked {@code source} to {@code target}'s list. O(1). */
  void link(final long source, final long target) {
    final int s = Entity.index(source);
    final int t = Entity.index(target);
    ensure(s);
    ensure(t);
    final long last = read(lasts, t);
    write(targets, s, target);
    write(previouses, s, last);
    write(nexts, s, Entity.NULL);
    if (Entity.isNull(last)) {
      write(firsts, t, source);
    } else {
      write(nexts, Entity.index(last), source);
    }
    write(lasts, t, source);
    counts[t >>> PAGE_SHIFT][t & PAGE_MASK]++;
    linked++;
  }

  /** Removes the linked {@code source} from its target's list. O(1). */
  void cut(final long source) {
    final int s = Entity.index(source);
    final long target = read(targets, s);
    final int t = Entity.index(target);
    final long previous = read(previouses, s);
    final long next = read(nexts, s);
    if (Entity.isNull(previous)) {
      write(firsts, t, next);
    } else {
      write(nexts, Entity.index(previous), next);
    }
    if (Entity.isNull(next)) {
      write(lasts, t, previous);
    } else {
      write(previouses, Entity.index(next), previous);
    }
    counts[t >>> PAGE_SHIFT][t & PAGE_MASK]--;
    write(targets, s, Entity.NULL);
    write(previouses, s, Entity.NULL);
    write(nexts, s, Entity.NULL);
    linked--;
  }

  /** Forgets every link (the pages are kept). O(pages). */
  void clear() {
    for (int page = 0; page < counts.length; page++) {
      if (NO_COUNTS != counts[page]) {
        Arrays.fill(counts[page], 0);
        Arrays.fill(firsts[page], Entity.NULL);
        Arrays.fill(lasts[page], Entity.NULL);
        Arrays.fill(targets[page], Entity.NULL);
        Arrays.fill(previouses[page], Entity.NULL);
        Arrays.fill(nexts[page], Entity.NULL);
      }
    }
    linked = 0;
  }

  private static long read(final long[][] pages, final int index) {
    final int page = index >>> PAGE_SHIFT;
    return page < pages.length ? pages[page][index & PAGE_MASK] : Entity.NULL;
  }

  private static void write(final long[][] pages, final int index, final long value) {
    pages[index >>> PAGE_SHIFT][index & PAGE_MASK] = value;
  }

  /** Makes the pages up to the one holding {@code index} writable. */
  private void ensure(final int index) {
    final int page = index >>> PAGE_SHIFT;
    if (page >= counts.length) {
      final int length = Math.max(page + 1, counts.length * 2);
      final int old = counts.length;
      firsts = grow(firsts, length);
      lasts = grow(lasts, length);
      targets = grow(targets, length);
      previouses = grow(previouses, length);
      nexts = grow(nexts, length);
      counts = Arrays.copyOf(counts, length);
      Arrays.fill(counts, old, length, NO_COUNTS);
    }
    if (NO_COUNTS == counts[page]) {
      counts[page] = new int[PAGE_SIZE];
      firsts[page] = newLinks();
      lasts[page] = newLinks();
      targets[page] = newLinks();
      previouses[page] = newLinks();
      nexts[page] = newLinks();
    }
  }

  private static long[][] grow(final long[][] pages, final int length) {
    final int old = pages.length;
    final long[][] grown = Arrays.copyOf(pages, length);
    Arrays.fill(grown, old, length, NO_LINKS);
    return grown;
  }
}
