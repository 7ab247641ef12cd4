package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A warm commit of a {@link ChangeSet} of the same shape each round (creations, then copies into
 * struct-of-arrays storages, one by one into a swap-and-pop and an in-place storage and as a range
 * into the swap-and-pop one, with an {@code @EntityRef} field rewritten to a created entity; no
 * listeners) allocates nothing, measured as {@link ZeroAllocationTest} does. The storages are
 * hand-written as the annotation processor generates them: {@code stage}, {@code stageFrom} and
 * {@code writeStaged} move fields, never an instance.
 */
class ChangeSetZeroAllocationTest {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** An element: two floats and a reference. */
  public record Point(float x, float y, long target) {}

  /** Marker classes of the two types. */
  public static final class PointMarker {
    private PointMarker() {}
  }

  public static final class InPlacePointMarker {
    private InPlacePointMarker() {}
  }

  /** A struct-of-arrays storage of {@link Point}, shaped as a generated one. */
  public static final class PointStorage extends Storage<Point> {
    float[][] xs = new float[0][];
    float[][] ys = new float[0][];
    long[][] targets = new long[0][];
    private float stagedX;
    private float stagedY;
    private long stagedTarget;

    PointStorage(final ComponentType<Point, ?> type) {
      super(type);
    }

    @Override
    protected void allocatePage(final int page) {
      if (page >= xs.length) {
        final int capacity = Math.max(page + 1, xs.length * 2);
        xs = Arrays.copyOf(xs, capacity);
        ys = Arrays.copyOf(ys, capacity);
        targets = Arrays.copyOf(targets, capacity);
      }
      xs[page] = null == xs[page] ? new float[pageSize()] : xs[page];
      ys[page] = null == ys[page] ? new float[pageSize()] : ys[page];
      targets[page] = null == targets[page] ? new long[pageSize()] : targets[page];
    }

    @Override
    protected Point getAt(final int position) {
      final int p = position >>> pageShift();
      final int o = position & (pageSize() - 1);
      return new Point(xs[p][o], ys[p][o], targets[p][o]);
    }

    @Override
    protected void setAt(final int position, final Point value) {
      stage(value);
      writeStaged(position);
    }

    @Override
    protected void moveElement(final int from, final int to) {
      final int fp = from >>> pageShift();
      final int fo = from & (pageSize() - 1);
      final int tp = to >>> pageShift();
      final int to2 = to & (pageSize() - 1);
      xs[tp][to2] = xs[fp][fo];
      ys[tp][to2] = ys[fp][fo];
      targets[tp][to2] = targets[fp][fo];
    }

    @Override
    protected void swapElements(final int left, final int right) {
      final float x = xs[left >>> pageShift()][left & (pageSize() - 1)];
      final float y = ys[left >>> pageShift()][left & (pageSize() - 1)];
      final long t = targets[left >>> pageShift()][left & (pageSize() - 1)];
      moveElement(right, left);
      xs[right >>> pageShift()][right & (pageSize() - 1)] = x;
      ys[right >>> pageShift()][right & (pageSize() - 1)] = y;
      targets[right >>> pageShift()][right & (pageSize() - 1)] = t;
    }

    @Override
    protected void stage(final Point value) {
      stagedX = value.x();
      stagedY = value.y();
      stagedTarget = value.target();
    }

    @Override
    protected void writeStaged(final int position) {
      final int p = position >>> pageShift();
      final int o = position & (pageSize() - 1);
      xs[p][o] = stagedX;
      ys[p][o] = stagedY;
      targets[p][o] = stagedTarget;
    }

    @Override
    protected void writeStaged(final int first, final int count) {
      for (int position = first; position < first + count; position++) {
        writeStaged(position);
      }
    }

    @Override
    protected void stageFrom(final Storage<Point> source, final int position) {
      final PointStorage from = (PointStorage) source;
      final int p = position >>> from.pageShift();
      final int o = position & (from.pageSize() - 1);
      stagedX = from.xs[p][o];
      stagedY = from.ys[p][o];
      stagedTarget = from.targets[p][o];
    }

    @Override
    protected void eachColumn(final ColumnVisitor visitor) {
      visitor.floats("x", xs);
      visitor.floats("y", ys);
      visitor.longs("target", targets, true);
    }
  }

  static final ComponentType<Point, PointStorage> POINT =
      define(PointMarker.class, ComponentTraits.DEFAULT.withPageSize(64));
  static final ComponentType<Point, PointStorage> IN_PLACE_POINT =
      define(
          InPlacePointMarker.class,
          ComponentTraits.DEFAULT.withPageSize(64).withPolicy(DeletionPolicy.IN_PLACE));

  @SuppressWarnings({"unchecked", "rawtypes"}) // the marker classes store Point elements
  private static ComponentType<Point, PointStorage> define(
      final Class<?> marker, final ComponentTraits traits) {
    return (ComponentType)
        ComponentType.define(
            (Class) marker, traits, type -> (Storage) new PointStorage((ComponentType) type));
  }

  @BeforeAll
  static void theCounterIsSupported() {
    assertTrue(THREADS.isThreadAllocatedMemorySupported());
    THREADS.setThreadAllocatedMemoryEnabled(true);
  }

  @Test
  void aWarmCommitOfCreationsAndCopiesAllocatesNothing() {
    final Registry registry = new Registry();
    final PointStorage points = registry.storage(POINT);
    final PointStorage inPlace = registry.storage(IN_PLACE_POINT);
    // Sources: an entity of the registry, and a standalone storage (a prefab's kind).
    final long source = registry.create();
    points.emplace(source, new Point(1, 2, source));
    final PointStorage standalone = IN_PLACE_POINT.createStorage();
    final long key = Entity.of(77, 0);
    standalone.emplace(key, new Point(3, 4, Entity.NULL));
    final ChangeSet changes = new ChangeSet(registry);
    final long[] handles = new long[4];
    final long[] made = new long[4];
    final ChangeSet.References toFirst = (copy, reference) -> handles[0];
    final Runnable round =
        () -> {
          changes.create(handles, 0, handles.length);
          changes.copy(handles[0], points, source, toFirst);
          changes.copy(handles[0], standalone, key);
          changes.copy(handles, 1, handles.length, points, source, toFirst);
          changes.copy(handles[1], standalone, key, null);
          changes.commit();
          for (int i = 0; i < handles.length; i++) {
            made[i] = changes.entityOf(handles[i]);
          }
          registry.destroy(made, 0, made.length);
        };
    round.run();
    assertEquals(1, registry.alive(), "the round leaves the world as it found it");
    // What a round makes, checked once.
    changes.create(handles, 0, 2);
    changes.copy(handles[0], points, source, toFirst);
    changes.copy(handles, 1, 2, points, source, toFirst);
    changes.commit();
    final long first = changes.entityOf(handles[0]);
    assertEquals(new Point(1, 2, first), points.get(first));
    assertEquals(new Point(1, 2, first), points.get(changes.entityOf(handles[1])));
    registry.destroy(first);
    registry.destroy(changes.entityOf(handles[1]));
    assertEquals(0, ZeroAllocationTest.allocatedBy(round), "a warm commit allocated");
    assertEquals(1, registry.alive());
    assertEquals(0, inPlace.size() - countTombstones(inPlace));
  }

  /**
   * Writes row {@code r} as {@code Point(r, -r, target)} through the storage's columns, allocating
   * nothing: what a loader's row writer does.
   */
  static final class PointRows implements ChangeSet.RowWriter, ColumnVisitor {
    long target;
    private int row;
    private int page;
    private int offset;

    @Override
    public void write(final Storage<?> storage, final int position, final int row) {
      this.row = row;
      this.page = position >>> storage.pageShift();
      this.offset = position & (storage.pageSize() - 1);
      storage.columns(this);
    }

    @Override
    public void floats(final String name, final float[][] pages) {
      pages[page][offset] = "x".equals(name) ? row : -row;
    }

    @Override
    public void longs(final String name, final long[][] pages, final boolean entityRef) {
      pages[page][offset] = target;
    }

    @Override
    public void booleans(final String name, final boolean[][] pages) {}

    @Override
    public void bytes(final String name, final byte[][] pages) {}

    @Override
    public void shorts(final String name, final short[][] pages) {}

    @Override
    public void chars(final String name, final char[][] pages) {}

    @Override
    public void ints(final String name, final int[][] pages) {}

    @Override
    public void doubles(final String name, final double[][] pages) {}

    @Override
    public void objects(final String name, final Class<?> type, final Object[][] pages) {}
  }

  /**
   * A warm commit of row insertions (into a swap-and-pop and an in-place storage, each naming a
   * staged handle that the commit rewrites) and a row write, with an update listener, allocates
   * nothing.
   */
  @Test
  void aWarmCommitOfRowInsertionsAndWritesAllocatesNothing() {
    final Registry registry = new Registry();
    final PointStorage points = registry.storage(POINT);
    registry.storage(IN_PLACE_POINT);
    final long kept = registry.create();
    points.emplace(kept, new Point(0, 0, Entity.NULL));
    final int[] updates = new int[1];
    points.onUpdate().connect((r, e) -> updates[0]++);
    final ChangeSet changes = new ChangeSet(registry);
    final PointRows rows = new PointRows();
    final long[] handles = new long[4];
    final long[] made = new long[4];
    final Runnable round =
        () -> {
          changes.create(handles, 0, handles.length);
          rows.target = handles[0];
          for (int i = 0; i < handles.length; i++) {
            changes.emplace(handles[i], 0 == i % 2 ? POINT : IN_PLACE_POINT, rows, i);
          }
          changes.write(kept, POINT, rows, 9);
          changes.commit();
          for (int i = 0; i < handles.length; i++) {
            made[i] = changes.entityOf(handles[i]);
          }
          registry.destroy(made, 0, made.length);
        };
    round.run();
    assertEquals(new Point(9, -9, made[0]), points.get(kept), "the staged handle rewritten");
    // What a round makes, checked once.
    changes.create(handles, 0, 2);
    rows.target = handles[1];
    changes.emplace(handles[0], POINT, rows, 3);
    changes.emplace(handles[1], IN_PLACE_POINT, rows, 4);
    changes.commit();
    final long first = changes.entityOf(handles[0]);
    final long second = changes.entityOf(handles[1]);
    assertEquals(new Point(3, -3, second), points.get(first));
    assertEquals(new Point(4, -4, second), registry.storage(IN_PLACE_POINT).get(second));
    registry.destroy(first);
    registry.destroy(second);
    final int before = updates[0];
    assertEquals(0, ZeroAllocationTest.allocatedBy(round), "a warm commit allocated");
    assertTrue(updates[0] > before, "the writes were announced");
    assertEquals(1, registry.alive());
  }

  private static int countTombstones(final SparseSet set) {
    int count = 0;
    for (int p = 0; p < set.size(); p++) {
      count += Entity.isTombstone(set.packed()[p]) ? 1 : 0;
    }
    return count;
  }
}
