package dev.phalanx.ecs.relation;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.internal.LongLongMap;
import java.util.Arrays;

/**
 * The pairs of one non-exclusive kind: a pool of link records, each a (source, target) pair that
 * sits in two intrusive doubly linked lists, the source's targets and the target's sources, both in
 * the order they were linked. Each entity index has the ends and the length of its two lists; a map
 * from the pair of entity indices to the record answers "does this pair exist" in O(1) expected.
 * Freed records are reused, last freed first.
 *
 * <p>Invariants kept by {@link #link}, {@link #unlink} and {@link #retarget} (callers check the
 * entities first): a record is in exactly the lists of its source and target, with symmetric
 * previous and next links; each list's ends and length are right; the map holds exactly the live
 * records. Nothing here publishes; nothing allocates once the arrays and the map have grown.
 */
final class PairLinks {

  /** No record: the end of a list. */
  static final int NONE = -1;

  // Per record: its pair, and its neighbours in the source's list (out) and the target's (in).
  // A free record's outNext is the next free one.
  private long[] sources = new long[16];
  private long[] targets = new long[16];
  private int[] outPrevious = new int[16];
  private int[] outNext = new int[16];
  private int[] inPrevious = new int[16];
  private int[] inNext = new int[16];
  private int records;
  private int free = NONE;
  private int size;
  // Per entity index: the ends and length of its targets (out) and of its sources (in).
  private int[] outFirst = new int[0];
  private int[] outLast = new int[0];
  private int[] outCount = new int[0];
  private int[] inFirst = new int[0];
  private int[] inLast = new int[0];
  private int[] inCount = new int[0];
  private final LongLongMap byPair = new LongLongMap(16);

  /** {@return the number of pairs} */
  int size() {
    return size;
  }

  /** {@return the record of the pair (source, target), or {@link #NONE}} */
  int find(final long source, final long target) {
    return (int) byPair.get(key(source, target), NONE);
  }

  long source(final int record) {
    return sources[record];
  }

  long target(final int record) {
    return targets[record];
  }

  /** {@return the first record of {@code source}'s targets, or {@link #NONE}} */
  int firstTarget(final long source) {
    final int index = Entity.index(source);
    return index < outFirst.length ? outFirst[index] : NONE;
  }

  /** {@return the record after {@code record} among its source's targets, or {@link #NONE}} */
  int nextTarget(final int record) {
    return outNext[record];
  }

  int previousTarget(final int record) {
    return outPrevious[record];
  }

  int lastTarget(final long source) {
    final int index = Entity.index(source);
    return index < outLast.length ? outLast[index] : NONE;
  }

  int targetCount(final long source) {
    final int index = Entity.index(source);
    return index < outCount.length ? outCount[index] : 0;
  }

  /** {@return the first record of {@code target}'s sources, or {@link #NONE}} */
  int firstSource(final long target) {
    final int index = Entity.index(target);
    return index < inFirst.length ? inFirst[index] : NONE;
  }

  /** {@return the record after {@code record} among its target's sources, or {@link #NONE}} */
  int nextSource(final int record) {
    return inNext[record];
  }

  int previousSource(final int record) {
    return inPrevious[record];
  }

  int lastSource(final long target) {
    final int index = Entity.index(target);
    return index < inLast.length ? inLast[index] : NONE;
  }

  int sourceCount(final long target) {
    final int index = Entity.index(target);
    return index < inCount.length ? inCount[index] : 0;
  }

  /** {@return the number of records ever used; live ones have a source, free ones NULL} */
  int records() {
    return records;
  }

  /** Adds the absent pair at the end of both lists; returns its record. O(1) expected. */
  int link(final long source, final long target) {
    ensureIndex(Math.max(Entity.index(source), Entity.index(target)));
    final int record = allocate();
    sources[record] = source;
    targets[record] = target;
    appendOut(record, Entity.index(source));
    appendIn(record, Entity.index(target));
    byPair.put(key(source, target), record);
    size++;
    return record;
  }

  /** Removes the pair of {@code record} from both lists and frees the record. O(1) expected. */
  void unlink(final int record) {
    byPair.remove(key(sources[record], targets[record]));
    cutOut(record, Entity.index(sources[record]));
    cutIn(record, Entity.index(targets[record]));
    sources[record] = Entity.NULL;
    targets[record] = Entity.NULL;
    outNext[record] = free;
    free = record;
    size--;
  }

  /**
   * Makes {@code record} name {@code target} instead: it keeps its place among its source's targets
   * and goes to the end of {@code target}'s sources. The pair (source, target) must be absent.
   */
  void retarget(final int record, final long target) {
    ensureIndex(Entity.index(target));
    byPair.remove(key(sources[record], targets[record]));
    cutIn(record, Entity.index(targets[record]));
    targets[record] = target;
    appendIn(record, Entity.index(target));
    byPair.put(key(sources[record], target), record);
  }

  /** Forgets every pair (the arrays are kept). */
  void clear() {
    Arrays.fill(outFirst, NONE);
    Arrays.fill(outLast, NONE);
    Arrays.fill(outCount, 0);
    Arrays.fill(inFirst, NONE);
    Arrays.fill(inLast, NONE);
    Arrays.fill(inCount, 0);
    Arrays.fill(sources, 0, records, Entity.NULL);
    Arrays.fill(targets, 0, records, Entity.NULL);
    byPair.clear();
    records = 0;
    free = NONE;
    size = 0;
  }

  /** The map's key of a pair: two live entities are told apart by their indices. */
  private static long key(final long source, final long target) {
    return ((long) Entity.index(source) << 32) | (Entity.index(target) & 0xFFFF_FFFFL);
  }

  private int allocate() {
    if (NONE != free) {
      final int record = free;
      free = outNext[record];
      return record;
    }
    if (records == sources.length) {
      final int length = records * 2;
      sources = Arrays.copyOf(sources, length);
      targets = Arrays.copyOf(targets, length);
      outPrevious = Arrays.copyOf(outPrevious, length);
      outNext = Arrays.copyOf(outNext, length);
      inPrevious = Arrays.copyOf(inPrevious, length);
      inNext = Arrays.copyOf(inNext, length);
    }
    return records++;
  }

  private void appendOut(final int record, final int source) {
    final int last = outLast[source];
    outPrevious[record] = last;
    outNext[record] = NONE;
    if (NONE == last) {
      outFirst[source] = record;
    } else {
      outNext[last] = record;
    }
    outLast[source] = record;
    outCount[source]++;
  }

  private void appendIn(final int record, final int target) {
    final int last = inLast[target];
    inPrevious[record] = last;
    inNext[record] = NONE;
    if (NONE == last) {
      inFirst[target] = record;
    } else {
      inNext[last] = record;
    }
    inLast[target] = record;
    inCount[target]++;
  }

  private void cutOut(final int record, final int source) {
    final int previous = outPrevious[record];
    final int next = outNext[record];
    if (NONE == previous) {
      outFirst[source] = next;
    } else {
      outNext[previous] = next;
    }
    if (NONE == next) {
      outLast[source] = previous;
    } else {
      outPrevious[next] = previous;
    }
    outCount[source]--;
  }

  private void cutIn(final int record, final int target) {
    final int previous = inPrevious[record];
    final int next = inNext[record];
    if (NONE == previous) {
      inFirst[target] = next;
    } else {
      inNext[previous] = next;
    }
    if (NONE == next) {
      inLast[target] = previous;
    } else {
      inPrevious[next] = previous;
    }
    inCount[target]--;
  }

  /** Makes the per-index arrays hold {@code index}. */
  private void ensureIndex(final int index) {
    if (index < outFirst.length) {
      return;
    }
    final int old = outFirst.length;
    final int length = Math.max(index + 1, Math.max(16, old * 2));
    outFirst = grown(outFirst, length, NONE);
    outLast = grown(outLast, length, NONE);
    inFirst = grown(inFirst, length, NONE);
    inLast = grown(inLast, length, NONE);
    outCount = Arrays.copyOf(outCount, length);
    inCount = Arrays.copyOf(inCount, length);
  }

  private static int[] grown(final int[] array, final int length, final int fill) {
    final int old = array.length;
    final int[] grown = Arrays.copyOf(array, length);
    Arrays.fill(grown, old, length, fill);
    return grown;
  }
}
