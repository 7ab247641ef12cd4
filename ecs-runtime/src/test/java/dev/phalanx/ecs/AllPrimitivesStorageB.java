package dev.phalanx.ecs;

import dev.phalanx.ecs.snapshot.ValueCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * A hand-written struct-of-arrays storage with a column of every kind snapshots know, as the
 * annotation processor generates them: the eight primitive types, an {@code @EntityRef} long, and
 * three reference columns (a string, an enum, a class written through a {@link ValueCodec}). Every
 * element is a {@link Sample}; two component types ({@link #SWAP}, 4-element pages, and {@link
 * #IN_PLACE}, 8-element pages with holes) share the storage class.
 */
public final class AllPrimitivesStorageB<T> extends Storage<T> {

  /** An enum column's type; its {@code toString} differs from the constant names on purpose. */
  public enum Mood {
    CALM,
    ANGRY,
    SLEEPY;

    @Override
    public String toString() {
      return "mood " + ordinal();
    }
  }

  /** A reference column's type, written through {@link #POINTS}. */
  public record Point(int x, int y) {}

  /** One element: a value for every column. */
  public record Sample(
      boolean flag,
      byte tiny,
      short small,
      char letter,
      int count,
      long big,
      long target,
      float ratio,
      double precise,
      String name,
      Mood mood,
      Point point) {}

  /** Marker class of {@link #SWAP}. */
  public static final class SwapSample {
    private SwapSample() {}
  }

  /** Marker class of {@link #IN_PLACE}. */
  public static final class InPlaceSample {
    private InPlaceSample() {}
  }

  /** Marker class of {@link #TRACKED}. */
  public static final class TrackedSample {
    private TrackedSample() {}
  }

  /** Marker class of {@link #IN_PLACE_TWIN}. */
  public static final class InPlaceTwinSample {
    private InPlaceTwinSample() {}
  }

  /** The codec of {@link Point}: two ints. */
  public static final ValueCodec<Point> POINTS =
      new ValueCodec<>() {
        @Override
        public void write(final Point value, final DataOutput out) throws IOException {
          out.writeInt(value.x());
          out.writeInt(value.y());
        }

        @Override
        public Point read(final DataInput in) throws IOException {
          return new Point(in.readInt(), in.readInt());
        }
      };

  public static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> SWAP =
      define(SwapSample.class, ComponentTraits.DEFAULT.withPageSize(4));

  public static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> IN_PLACE =
      define(
          InPlaceSample.class,
          ComponentTraits.DEFAULT.withPageSize(8).withPolicy(DeletionPolicy.IN_PLACE));

  /** A second in-place type, for storages that hold the same entities at the same positions. */
  public static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> IN_PLACE_TWIN =
      define(
          InPlaceTwinSample.class,
          ComponentTraits.DEFAULT.withPageSize(8).withPolicy(DeletionPolicy.IN_PLACE));

  /**
   * A tracked type (4-element pages), shaped as a generated {@code @Component(tracked = true)}
   * storage: every write stamps the element with the current change tick, kept in tick pages laid
   * out as the field pages.
   */
  @SuppressWarnings({"unchecked", "rawtypes"}) // the marker class stores Sample elements
  public static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> TRACKED =
      ComponentType.define(
          (Class) TrackedSample.class,
          ComponentTraits.DEFAULT.withPageSize(4),
          type -> new AllPrimitivesStorageB<>((ComponentType) type, true));

  @SuppressWarnings({"unchecked", "rawtypes"}) // every marker class stores Sample elements
  private static ComponentType<Sample, AllPrimitivesStorageB<Sample>> define(
      final Class<?> marker, final ComponentTraits traits) {
    return ComponentType.define(
        (Class) marker, traits, type -> new AllPrimitivesStorageB<>((ComponentType) type));
  }

  private final boolean tracked;
  public long[][] ticks = new long[0][];

  public boolean[][] flags = new boolean[0][];
  public byte[][] tinies = new byte[0][];
  public short[][] smalls = new short[0][];
  public char[][] letters = new char[0][];
  public int[][] counts = new int[0][];
  public long[][] bigs = new long[0][];
  public long[][] targets = new long[0][];
  public float[][] ratios = new float[0][];
  public double[][] precises = new double[0][];
  public Object[][] names = new Object[0][];
  public Object[][] moods = new Object[0][];
  public Object[][] points = new Object[0][];

  public AllPrimitivesStorageB(final ComponentType<T, ?> type) {
    this(type, false);
  }

  public AllPrimitivesStorageB(final ComponentType<T, ?> type, final boolean tracked) {
    super(type);
    this.tracked = tracked;
  }

  @Override
  public boolean isTracked() {
    return tracked;
  }

  @Override
  public long changeTickAt(final int position) {
    return tracked ? ticks[position >>> pageShift()][position & (pageSize() - 1)] : 0;
  }

  @Override
  public long[][] changeTickPages() {
    return tracked ? ticks : super.changeTickPages();
  }

  @Override
  public boolean isWriteLogged() {
    return tracked;
  }

  @Override
  protected void markWritten(final int position) {
    if (tracked) {
      // As generated storages: the first write of an element at a tick is logged, if read.
      final long[] page = ticks[position >>> pageShift()];
      final int offset = position & (pageSize() - 1);
      if (page[offset] != changeTick()) {
        page[offset] = changeTick();
        if (logsWrites()) {
          logWritten(position);
        }
      }
    }
  }

  /** Returns the element at {@code position} as a {@link Sample}. */
  public Sample sampleAt(final int position) {
    final int p = position >>> pageShift();
    final int o = position & (pageSize() - 1);
    return new Sample(
        flags[p][o],
        tinies[p][o],
        smalls[p][o],
        letters[p][o],
        counts[p][o],
        bigs[p][o],
        targets[p][o],
        ratios[p][o],
        precises[p][o],
        (String) names[p][o],
        (Mood) moods[p][o],
        (Point) points[p][o]);
  }

  @Override
  protected void allocatePage(final int page) {
    if (page >= flags.length) {
      final int capacity = Math.max(page + 1, flags.length * 2);
      flags = Arrays.copyOf(flags, capacity);
      tinies = Arrays.copyOf(tinies, capacity);
      smalls = Arrays.copyOf(smalls, capacity);
      letters = Arrays.copyOf(letters, capacity);
      counts = Arrays.copyOf(counts, capacity);
      bigs = Arrays.copyOf(bigs, capacity);
      targets = Arrays.copyOf(targets, capacity);
      ratios = Arrays.copyOf(ratios, capacity);
      precises = Arrays.copyOf(precises, capacity);
      names = Arrays.copyOf(names, capacity);
      moods = Arrays.copyOf(moods, capacity);
      points = Arrays.copyOf(points, capacity);
      ticks = Arrays.copyOf(ticks, capacity);
    }
    ticks[page] = null == ticks[page] ? new long[pageSize()] : ticks[page];
    final int size = pageSize();
    flags[page] = null == flags[page] ? new boolean[size] : flags[page];
    tinies[page] = null == tinies[page] ? new byte[size] : tinies[page];
    smalls[page] = null == smalls[page] ? new short[size] : smalls[page];
    letters[page] = null == letters[page] ? new char[size] : letters[page];
    counts[page] = null == counts[page] ? new int[size] : counts[page];
    bigs[page] = null == bigs[page] ? new long[size] : bigs[page];
    targets[page] = null == targets[page] ? new long[size] : targets[page];
    ratios[page] = null == ratios[page] ? new float[size] : ratios[page];
    precises[page] = null == precises[page] ? new double[size] : precises[page];
    names[page] = null == names[page] ? new Object[size] : names[page];
    moods[page] = null == moods[page] ? new Object[size] : moods[page];
    points[page] = null == points[page] ? new Object[size] : points[page];
  }

  @Override
  @SuppressWarnings("unchecked") // every element is a Sample
  protected T getAt(final int position) {
    return (T) sampleAt(position);
  }

  @Override
  protected void setAt(final int position, final T value) {
    final Sample s = (Sample) value;
    final int p = position >>> pageShift();
    final int o = position & (pageSize() - 1);
    flags[p][o] = s.flag();
    tinies[p][o] = s.tiny();
    smalls[p][o] = s.small();
    letters[p][o] = s.letter();
    counts[p][o] = s.count();
    bigs[p][o] = s.big();
    targets[p][o] = s.target();
    ratios[p][o] = s.ratio();
    precises[p][o] = s.precise();
    names[p][o] = s.name();
    moods[p][o] = s.mood();
    points[p][o] = s.point();
    markWritten(position);
  }

  @Override
  @SuppressWarnings("unchecked") // every element is a Sample
  protected void moveElement(final int from, final int to) {
    setAt(to, (T) sampleAt(from));
    ticks[to >>> pageShift()][to & (pageSize() - 1)] = tickAt(from);
  }

  private long tickAt(final int position) {
    return ticks[position >>> pageShift()][position & (pageSize() - 1)];
  }

  @Override
  @SuppressWarnings("unchecked") // every element is a Sample
  protected void swapElements(final int left, final int right) {
    final Sample l = sampleAt(left);
    final long leftTick = tickAt(left);
    setAt(left, (T) sampleAt(right));
    ticks[left >>> pageShift()][left & (pageSize() - 1)] = tickAt(right);
    setAt(right, (T) l);
    ticks[right >>> pageShift()][right & (pageSize() - 1)] = leftTick;
  }

  @Override
  protected void releaseElement(final int position) {
    final int p = position >>> pageShift();
    final int o = position & (pageSize() - 1);
    names[p][o] = null;
    moods[p][o] = null;
    points[p][o] = null;
  }

  @Override
  public void eachEntityRef(final EntityRefVisitor visitor) {
    final long[] packed = packed();
    for (int position = 0; position < size(); position++) {
      if (!Entity.isTombstone(packed[position])) {
        visitor.visit(packed[position], "target", sampleAt(position).target());
      }
    }
  }

  @Override
  protected void eachColumn(final ColumnVisitor visitor) {
    visitor.booleans("flag", flags);
    visitor.bytes("tiny", tinies);
    visitor.shorts("small", smalls);
    visitor.chars("letter", letters);
    visitor.ints("count", counts);
    visitor.longs("big", bigs, false);
    visitor.longs("target", targets, true);
    visitor.floats("ratio", ratios);
    visitor.doubles("precise", precises);
    visitor.objects("name", String.class, names);
    visitor.objects("mood", Mood.class, moods);
    visitor.objects("point", Point.class, points);
  }
}
