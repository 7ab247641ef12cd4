package dev.phalanx.ecs.internal;

import java.util.Arrays;

/**
 * The one kernel of ordered, intrusive doubly linked lists over paged arrays that Phalanx's links
 * share: each owner (a relationship's target, a hierarchy's parent) has the list of its members
 * (sources, children), in a chosen order; each member names its owner and its neighbours. A
 * relationship kind's reverse side keeps its arrays at entity indices; the hierarchy keeps them in
 * its node storage, at storage positions: a subclass says where ({@link #slot}).
 *
 * <p>Invariants kept by {@link #insertAfter} and {@link #cut} (callers check the entities first,
 * and make sure the slots they name exist): a member is in the list of exactly the owner it names;
 * previous and next links are symmetric; an owner's count is its list's length and its first and
 * last name the list's ends. These methods allocate nothing, check nothing and publish nothing.
 */
public abstract class IntrusiveLists {

  /** The null link: the value of {@code Entity.NULL}, all bits set. */
  public static final long NULL = -1L;

  private final int shift;
  private final int mask;
  // Whether each owner's last member is kept: not where raw writes of the other links (a loader's
  // pages) would leave it stale.
  private final boolean keepsLasts;
  private final long[] noLinks;
  private final int[] noCounts;

  // As an owner: the first and last member and their number; as a member: its owner and its
  // neighbours in that owner's list. Pages not yet written are the shared, read-only noLinks.
  private long[][] owners = new long[0][];
  private long[][] firsts = new long[0][];
  private long[][] lasts = new long[0][];
  private long[][] previouses = new long[0][];
  private long[][] nexts = new long[0][];
  private int[][] counts = new int[0][];

  /**
   * Creates lists with no links.
   *
   * @param shift log2 of the page size
   * @param keepsLasts whether each owner's last member is kept ({@link #lastAt}); if not, it reads
   *     {@link #NULL}
   */
  protected IntrusiveLists(final int shift, final boolean keepsLasts) {
    this.shift = shift;
    this.keepsLasts = keepsLasts;
    this.mask = (1 << shift) - 1;
    this.noLinks = newLinks(1 << shift);
    this.noCounts = new int[1 << shift];
  }

  private static long[] newLinks(final int size) {
    final long[] page = new long[size];
    Arrays.fill(page, NULL);
    return page;
  }

  /**
   * {@return the slot of {@code entity}'s links: its entity index, or its position in a storage}
   *
   * @param entity an entity handle with a slot
   */
  protected abstract int slot(long entity);

  /** {@return the owner the member at {@code slot} names, or {@link #NULL}} */
  public long ownerAt(final int slot) {
    return read(owners, slot);
  }

  /** {@return the first member of the owner at {@code slot}, or {@link #NULL}} */
  public long firstAt(final int slot) {
    return read(firsts, slot);
  }

  /** {@return the last member of the owner at {@code slot}, or {@link #NULL}} */
  public long lastAt(final int slot) {
    return read(lasts, slot);
  }

  /** {@return the member before the one at {@code slot}, or {@link #NULL}} */
  public long previousAt(final int slot) {
    return read(previouses, slot);
  }

  /** {@return the member after the one at {@code slot}, or {@link #NULL}} */
  public long nextAt(final int slot) {
    return read(nexts, slot);
  }

  /** {@return the number of members of the owner at {@code slot}} */
  public int countAt(final int slot) {
    final int page = slot >>> shift;
    return page < counts.length ? counts[page][slot & mask] : 0;
  }

  /**
   * Links the unlinked {@code member} into {@code owner}'s list right after {@code previous} (a
   * member of that list), or first if {@code previous} is {@link #NULL}. O(1).
   */
  public void insertAfter(final long member, final long owner, final long previous) {
    final int m = slot(member);
    final int o = slot(owner);
    final long next = NULL == previous ? read(firsts, o) : read(nexts, slot(previous));
    write(owners, m, owner);
    write(previouses, m, previous);
    write(nexts, m, next);
    if (NULL == previous) {
      write(firsts, o, member);
    } else {
      write(nexts, slot(previous), member);
    }
    if (NULL != next) {
      write(previouses, slot(next), member);
    } else if (keepsLasts) {
      write(lasts, o, member);
    }
    counts[o >>> shift][o & mask]++;
  }

  /** Removes the linked {@code member} from its owner's list, leaving it without links. O(1). */
  public void cut(final long member) {
    final int m = slot(member);
    final int o = slot(read(owners, m));
    final long previous = read(previouses, m);
    final long next = read(nexts, m);
    if (NULL == previous) {
      write(firsts, o, next);
    } else {
      write(nexts, slot(previous), next);
    }
    if (NULL != next) {
      write(previouses, slot(next), previous);
    } else if (keepsLasts) {
      write(lasts, o, previous);
    }
    counts[o >>> shift][o & mask]--;
    clearMember(m);
  }

  /**
   * Leaves every member of the owner at {@code slot} without links and the owner without members,
   * touching nothing else. O(members).
   */
  public void orphanAt(final int slot) {
    for (long member = read(firsts, slot); NULL != member; ) {
      final int m = slot(member);
      member = read(nexts, m);
      clearMember(m);
    }
    clearOwner(slot);
  }

  /** Clears the member links (owner and neighbours) at {@code slot}, touching no other slot. */
  public void clearMember(final int slot) {
    write(owners, slot, NULL);
    write(previouses, slot, NULL);
    write(nexts, slot, NULL);
  }

  /** Clears the owner links (ends and count) at {@code slot}, touching no other slot. */
  public void clearOwner(final int slot) {
    write(firsts, slot, NULL);
    write(lasts, slot, NULL);
    counts[slot >>> shift][slot & mask] = 0;
  }

  /**
   * Writes the links of one list member at {@code slot} raw (a rebuild's): its owner and
   * neighbours.
   */
  public void setMember(final int slot, final long owner, final long previous, final long next) {
    write(owners, slot, owner);
    write(previouses, slot, previous);
    write(nexts, slot, next);
  }

  /**
   * Writes the ends and count of the owner at {@code slot} raw (a rebuild's); the last only if
   * lasts are kept.
   */
  public void setOwner(final int slot, final long first, final long last, final int count) {
    write(firsts, slot, first);
    if (keepsLasts) {
      write(lasts, slot, last);
    }
    counts[slot >>> shift][slot & mask] = count;
  }

  /** Sets the next link of the member at {@code slot} raw (a rebuild's). */
  public void setNext(final int slot, final long next) {
    write(nexts, slot, next);
  }

  /** Sets the previous link of the member at {@code slot} raw (a test's corruption). */
  public void setPrevious(final int slot, final long previous) {
    write(previouses, slot, previous);
  }

  /** Sets the first member of the owner at {@code slot} raw (a test's corruption). */
  public void setFirst(final int slot, final long first) {
    write(firsts, slot, first);
  }

  /** Sets the member count of the owner at {@code slot} raw (a test's corruption). */
  public void setCount(final int slot, final int count) {
    counts[slot >>> shift][slot & mask] = count;
  }

  /** Forgets every link (the pages are kept). O(pages). */
  public void clear() {
    for (int page = 0; page < counts.length; page++) {
      if (noCounts != counts[page]) {
        Arrays.fill(counts[page], 0);
        Arrays.fill(firsts[page], NULL);
        Arrays.fill(lasts[page], NULL);
        Arrays.fill(owners[page], NULL);
        Arrays.fill(previouses[page], NULL);
        Arrays.fill(nexts[page], NULL);
      }
    }
  }

  /** Copies every link at {@code from} to {@code to} (a storage's compaction). */
  public void move(final int from, final int to) {
    write(owners, to, read(owners, from));
    write(firsts, to, read(firsts, from));
    write(lasts, to, read(lasts, from));
    write(previouses, to, read(previouses, from));
    write(nexts, to, read(nexts, from));
    counts[to >>> shift][to & mask] = countAt(from);
  }

  /** Swaps every link at {@code left} with those at {@code right} (a storage's sort). */
  public void swap(final int left, final int right) {
    swap(owners, left, right);
    swap(firsts, left, right);
    swap(lasts, left, right);
    swap(previouses, left, right);
    swap(nexts, left, right);
    final int count = countAt(left);
    counts[left >>> shift][left & mask] = countAt(right);
    counts[right >>> shift][right & mask] = count;
  }

  private void swap(final long[][] pages, final int left, final int right) {
    final long value = read(pages, left);
    write(pages, left, read(pages, right));
    write(pages, right, value);
  }

  /** Makes the pages up to {@code page} writable. */
  public void ensurePage(final int page) {
    if (page >= counts.length) {
      final int length = Math.max(page + 1, counts.length * 2);
      final int old = counts.length;
      owners = grow(owners, length);
      firsts = grow(firsts, length);
      lasts = grow(lasts, length);
      previouses = grow(previouses, length);
      nexts = grow(nexts, length);
      counts = Arrays.copyOf(counts, length);
      Arrays.fill(counts, old, length, noCounts);
    }
    if (noCounts == counts[page]) {
      final int size = 1 << shift;
      counts[page] = new int[size];
      owners[page] = newLinks(size);
      firsts[page] = newLinks(size);
      lasts[page] = newLinks(size);
      previouses[page] = newLinks(size);
      nexts[page] = newLinks(size);
    }
  }

  /** Makes the pages of {@code slot} writable. */
  public void ensureSlot(final int slot) {
    ensurePage(slot >>> shift);
  }

  private long[][] grow(final long[][] pages, final int length) {
    final int old = pages.length;
    final long[][] grown = Arrays.copyOf(pages, length);
    Arrays.fill(grown, old, length, noLinks);
    return grown;
  }

  /** {@return the pages of the members' owners (a storage's column)} */
  public long[][] ownerPages() {
    return owners;
  }

  /** {@return the pages of the owners' first members (a storage's column)} */
  public long[][] firstPages() {
    return firsts;
  }

  /** {@return the pages of the members' previous neighbours (a storage's column)} */
  public long[][] previousPages() {
    return previouses;
  }

  /** {@return the pages of the members' next neighbours (a storage's column)} */
  public long[][] nextPages() {
    return nexts;
  }

  /** {@return the pages of the owners' member counts (a storage's column)} */
  public int[][] countPages() {
    return counts;
  }

  private long read(final long[][] pages, final int slot) {
    final int page = slot >>> shift;
    return page < pages.length ? pages[page][slot & mask] : NULL;
  }

  private void write(final long[][] pages, final int slot, final long value) {
    pages[slot >>> shift][slot & mask] = value;
  }
}
