package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.worlds.Sizes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The floor of eager sparse-set structural changes: the moves that {@link WithGroups#addRemove} and
 * {@link Destroy#phalanx} make, written by hand over plain paged arrays (pages of 4,096, as
 * Phalanx's), with no checks but the entity's validity, no signals, no iteration guards and no
 * generality. Run side by side with those rows: what Phalanx pays above these is its own overhead;
 * what these pay is the cost of the moves themselves.
 *
 * <p>Add + remove: a one-int tag added to and removed from every entity of a world of two two-float
 * components, with ({@code group = true}) or without a full-owning group over the three: entering
 * swaps the entity to the group's end in both float sets, leaving swaps it with the last member and
 * pops the tag. Destroy: every entity of a world of the two float sets, each removed by
 * swap-and-pop, its identifier released with the next version into a dense entity list. The floor's
 * arrays allocate their pages together, array by array; {@code layout = interleaved} shows what a
 * registry's placement costs, which allocates pages as entities arrive.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class HandWritten extends StructuralBenchmark {

  private static final int SHIFT = 12;
  private static final int PAGE = 1 << SHIFT;
  private static final int MASK = PAGE - 1;

  /**
   * The keys of a sparse set of entities, in pages of {@link #PAGE}: handles packed at {@code [0,
   * size)}, and per entity index its position plus one (0: absent). Subclasses add the columns.
   */
  abstract static class Keys {
    final long[] packed;
    final int[][] sparse;
    final int pages;
    int size;

    /** With {@code pagesLater}, the sparse pages are left for the caller to allocate. */
    Keys(final int capacity, final boolean pagesLater) {
      pages = (capacity + MASK) >>> SHIFT;
      packed = new long[capacity];
      sparse = pagesLater ? new int[pages][] : new int[pages][PAGE];
    }

    /** {@return the position of entity {@code e}, or -1} */
    final int indexOf(final long e) {
      final int index = (int) e;
      final int position = sparse[index >>> SHIFT][index & MASK] - 1;
      return position >= 0 && packed[position] == e ? position : -1;
    }

    /** Appends {@code e}'s key and returns its position, where the caller writes the columns. */
    final int appendKey(final long e) {
      final int p = size++;
      packed[p] = e;
      sparse[((int) e) >>> SHIFT][((int) e) & MASK] = p + 1;
      return p;
    }

    /** Removes the element at {@code p} by swap-and-pop. */
    final void removeAt(final int p) {
      final long e = packed[p];
      final int last = --size;
      if (p != last) {
        final long moved = packed[last];
        packed[p] = moved;
        sparse[((int) moved) >>> SHIFT][((int) moved) & MASK] = p + 1;
        moveColumns(last, p);
      }
      sparse[((int) e) >>> SHIFT][((int) e) & MASK] = 0;
    }

    /** Swaps the keys at {@code l} and {@code r}, which differ; the caller swaps the columns. */
    final void swapKeys(final int l, final int r) {
      final long a = packed[l];
      final long b = packed[r];
      packed[l] = b;
      packed[r] = a;
      sparse[((int) a) >>> SHIFT][((int) a) & MASK] = r + 1;
      sparse[((int) b) >>> SHIFT][((int) b) & MASK] = l + 1;
    }

    abstract void moveColumns(int from, int to);
  }

  /** A set with two float columns. */
  static class FloatPairs extends Keys {
    final float[][] x;
    final float[][] y;

    FloatPairs(final int capacity, final boolean pagesLater) {
      super(capacity, pagesLater);
      x = pagesLater ? new float[pages][] : new float[pages][PAGE];
      y = pagesLater ? new float[pages][] : new float[pages][PAGE];
    }

    void append(final long e, final float a, final float b) {
      final int p = appendKey(e);
      x[p >>> SHIFT][p & MASK] = a;
      y[p >>> SHIFT][p & MASK] = b;
    }

    void swap(final int l, final int r) {
      if (l == r) {
        return;
      }
      swapKeys(l, r);
      final float[] xl = x[l >>> SHIFT];
      final float[] xr = x[r >>> SHIFT];
      final float xv = xl[l & MASK];
      xl[l & MASK] = xr[r & MASK];
      xr[r & MASK] = xv;
      final float[] yl = y[l >>> SHIFT];
      final float[] yr = y[r >>> SHIFT];
      final float yv = yl[l & MASK];
      yl[l & MASK] = yr[r & MASK];
      yr[r & MASK] = yv;
    }

    @Override
    void moveColumns(final int from, final int to) {
      x[to >>> SHIFT][to & MASK] = x[from >>> SHIFT][from & MASK];
      y[to >>> SHIFT][to & MASK] = y[from >>> SHIFT][from & MASK];
    }
  }

  /**
   * The same columns under a second class, as a registry's storages of two generated types are: the
   * floor's payload move then has two receivers, as Phalanx's has.
   */
  static final class OtherFloatPairs extends FloatPairs {
    OtherFloatPairs(final int capacity) {
      super(capacity, false);
    }

    @Override
    void moveColumns(final int from, final int to) {
      super.moveColumns(from, to);
    }
  }

  /** A set with one int column. */
  static final class Ints extends Keys {
    final int[][] v;

    Ints(final int capacity) {
      super(capacity, false);
      v = new int[pages][PAGE];
    }

    void append(final long e, final int value) {
      final int p = appendKey(e);
      v[p >>> SHIFT][p & MASK] = value;
    }

    @Override
    void moveColumns(final int from, final int to) {
      v[to >>> SHIFT][to & MASK] = v[from >>> SHIFT][from & MASK];
    }
  }

  /**
   * The entity list, dense as Phalanx's (and EnTT's): live handles at {@code [0, alive)} of {@code
   * packed}, released ones after them, recycled most recent first; {@code position} maps an index
   * to its slot.
   */
  static final class Entities {
    final long[] packed;
    final int[] position;
    final long[] handles;
    int alive;
    int size;

    Entities(final int n) {
      packed = new long[n];
      position = new int[n];
      handles = new long[n];
    }

    boolean valid(final long e) {
      final int at = position[(int) e];
      return at < alive && packed[at] == e;
    }

    long create() {
      if (alive < size) {
        return packed[alive++];
      }
      final long e = size;
      packed[size] = e;
      position[size] = size;
      size++;
      alive++;
      return e;
    }

    /** Releases {@code e}: it swaps with the last live handle and gets the next version. */
    void release(final long e) {
      final int index = (int) e;
      final int at = position[index];
      final int last = --alive;
      final long moved = packed[last];
      packed[at] = moved;
      position[(int) moved] = at;
      packed[last] = e + (1L << 32);
      position[index] = last;
    }
  }

  /** The entity list and two float sets, Position- and Velocity-like. */
  static final class World {
    final Entities entities;
    final FloatPairs positions;
    final FloatPairs velocities;

    World(final int n) {
      this(n, false, false);
    }

    /**
     * With {@code twoClasses}, the velocities' set is an {@link OtherFloatPairs}. With {@code
     * interleaved}, the pages are allocated in the order a registry filling entity by entity
     * allocates them: per 4,096 entities the positions' sparse page and two float pages, then the
     * velocities'; without, each array's pages are allocated together.
     */
    World(final int n, final boolean twoClasses, final boolean interleaved) {
      entities = new Entities(n);
      positions = new FloatPairs(n, interleaved);
      velocities = twoClasses ? new OtherFloatPairs(n) : new FloatPairs(n, interleaved);
      if (interleaved) {
        final FloatPairs[] sets = {positions, velocities};
        for (int page = 0; page < positions.pages; page++) {
          for (final FloatPairs set : sets) {
            set.sparse[page] = new int[PAGE];
            set.x[page] = new float[PAGE];
            set.y[page] = new float[PAGE];
          }
        }
      }
    }

    /** Creates (recycling after the first time) every entity, with both floats, in order. */
    void fill() {
      final long[] handles = entities.handles;
      for (int i = 0; i < handles.length; i++) {
        final long e = entities.create();
        handles[i] = e;
        positions.append(e, Work.x(i), Work.x(i));
        velocities.append(e, Work.v(i), Work.v(i));
      }
    }
  }

  /** A world, a tag set, and an optional group over the three sets. */
  @State(Scope.Benchmark)
  public static class AddRemoveState {
    @Param({"false", "true"})
    boolean group;

    World world;
    Ints tags;

    /** The group's size: members sit at {@code [0, length)} of the three sets. */
    int length;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      final int n = Sizes.entities(params);
      world = new World(n);
      world.fill();
      tags = new Ints(n);
    }
  }

  @Benchmark
  public int addRemove(final AddRemoveState s) {
    final Entities entities = s.world.entities;
    final long[] handles = entities.handles;
    final FloatPairs positions = s.world.positions;
    final FloatPairs velocities = s.world.velocities;
    final Ints tags = s.tags;
    final boolean grouped = s.group;
    int length = s.length;
    for (final long e : handles) {
      if (!entities.valid(e)) {
        throw new IllegalArgumentException("not valid");
      }
      tags.append(e, 1);
      if (grouped) {
        final int p = positions.indexOf(e);
        final int v = velocities.indexOf(e);
        if (p >= 0 && v >= 0) {
          // Every tagged entity is a member, so the tag landed at the group's end already.
          positions.swap(p, length);
          velocities.swap(v, length);
          length++;
        }
      }
    }
    for (final long e : handles) {
      final int at = tags.indexOf(e);
      if (at < 0) {
        throw new IllegalArgumentException("no tag");
      }
      if (grouped && at < length) {
        final int last = length - 1;
        positions.swap(positions.indexOf(e), last);
        velocities.swap(velocities.indexOf(e), last);
        length = last;
      }
      tags.removeAt(at);
    }
    s.length = length;
    return length;
  }

  /**
   * A world refilled before each shot. {@code layout}: {@code plain}, the two sets of one class
   * with each array's pages allocated together; {@code twoClasses}, the velocities in an {@link
   * OtherFloatPairs}, so that the payload move has two receivers, as in a registry of generated
   * storages (where one class lets the JIT bind it statically); {@code interleaved}, the pages
   * allocated in the order a registry allocates them as it fills (see {@link World}): the same
   * moves over the same arrays, only placed differently in the heap.
   */
  @State(Scope.Benchmark)
  public static class DestroyState {
    @Param({"plain", "twoClasses", "interleaved"})
    String layout;

    World world;
    FloatPairs[] sets;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == world) {
        final int n = Sizes.entities(params);
        world = new World(n, "twoClasses".equals(layout), "interleaved".equals(layout));
        sets = new FloatPairs[] {world.positions, world.velocities};
      }
      // Identifiers are recycled after the first shot, as in Phalanx's world.
      world.fill();
    }
  }

  @Benchmark
  public int destroy(final DestroyState s) {
    return destroyEach(s);
  }

  private static int destroyEach(final DestroyState s) {
    final Entities entities = s.world.entities;
    final FloatPairs[] sets = s.sets;
    for (final long e : entities.handles) {
      if (!entities.valid(e)) {
        throw new IllegalArgumentException("not valid");
      }
      // As a registry must, ask every set: it does not know an entity's components statically.
      for (int i = sets.length - 1; i >= 0; i--) {
        final FloatPairs set = sets[i];
        final int at = set.indexOf(e);
        if (at >= 0) {
          set.removeAt(at);
        }
      }
      entities.release(e);
    }
    return sets[0].size;
  }
}
