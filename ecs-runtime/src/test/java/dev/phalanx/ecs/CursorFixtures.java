package dev.phalanx.ecs;

import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * A hand-written struct-of-arrays storage with a cursor, shaped as the processor generates them (an
 * int field in pages, a {@link Cursor} subclass reading it by position), and component types over
 * it, for the typed view tests of the runtime.
 */
public final class CursorFixtures {

  private CursorFixtures() {}

  /** A component with one int field. */
  public interface Valued {
    int value();
  }

  public record A(int value) implements Valued {}

  public record B(int value) implements Valued {}

  public record C(int value) implements Valued {}

  public record D(int value) implements Valued {}

  public record P(int value) implements Valued {}

  public record E(int value) implements Valued {}

  public record F(int value) implements Valued {}

  public record G(int value) implements Valued {}

  public record H(int value) implements Valued {}

  /** The cursor of {@link IntStorage}. */
  public static final class IntCursor extends Cursor {
    private final IntStorage<?> storage;

    IntCursor(final IntStorage<?> storage) {
      super(storage.pageShift());
      this.storage = storage;
    }

    @Override
    protected void point(final int position) {
      this.position = position;
    }

    @Override
    public void moveToPage(final int page) {
      this.position = page << pageShift;
    }

    @Override
    public void moveWithinPage(final int offset) {
      this.position = (position & ~pageMask) | offset;
    }

    @Override
    public void moveToElement(final int page, final int offset) {
      this.position = page << pageShift | offset;
    }

    int value() {
      return storage.valueAt(position);
    }

    void setValue(final int value) {
      storage.setValueAt(position, value);
    }

    long entity() {
      return storage.packed()[position];
    }

    IntStorage<?> storage() {
      return storage;
    }
  }

  /** Keeps the int field of a {@link Valued} component in pages. */
  public static final class IntStorage<T extends Valued> extends Storage<T>
      implements CursorSource<IntCursor> {
    private final IntFunction<T> make;
    private int[][] pages = new int[0][];
    private int staged;

    IntStorage(final ComponentType<T, ?> type, final IntFunction<T> make) {
      super(type);
      this.make = make;
    }

    @Override
    public IntCursor cursor() {
      return new IntCursor(this);
    }

    int valueAt(final int position) {
      return pages[position >>> pageShift()][position & (pageSize() - 1)];
    }

    void setValueAt(final int position, final int value) {
      pages[position >>> pageShift()][position & (pageSize() - 1)] = value;
    }

    @Override
    protected void allocatePage(final int page) {
      if (page >= pages.length) {
        pages = Arrays.copyOf(pages, Math.max(page + 1, pages.length * 2));
      }
      pages[page] = new int[pageSize()];
    }

    @Override
    protected T getAt(final int position) {
      return make.apply(valueAt(position));
    }

    @Override
    protected void setAt(final int position, final T value) {
      stage(value);
      writeStaged(position);
    }

    @Override
    protected void stage(final T value) {
      staged = value.value();
    }

    @Override
    protected void writeStaged(final int position) {
      setValueAt(position, staged);
    }

    @Override
    protected void moveElement(final int from, final int to) {
      setValueAt(to, valueAt(from));
    }

    @Override
    protected void swapElements(final int left, final int right) {
      final int kept = valueAt(left);
      setValueAt(left, valueAt(right));
      setValueAt(right, kept);
    }
  }

  private static <T extends Valued> ComponentType<T, IntStorage<T>> define(
      final Class<T> javaClass,
      final int pageSize,
      final DeletionPolicy policy,
      final IntFunction<T> make) {
    return ComponentType.define(
        javaClass,
        new ComponentTraits(pageSize, policy, false),
        type -> new IntStorage<>(type, make));
  }

  public static final ComponentType<A, IntStorage<A>> TA =
      define(A.class, 4, DeletionPolicy.SWAP_AND_POP, A::new);
  public static final ComponentType<B, IntStorage<B>> TB =
      define(B.class, 2, DeletionPolicy.SWAP_AND_POP, B::new);
  public static final ComponentType<C, IntStorage<C>> TC =
      define(C.class, 1024, DeletionPolicy.SWAP_AND_POP, C::new);
  public static final ComponentType<D, IntStorage<D>> TD =
      define(D.class, 8, DeletionPolicy.SWAP_AND_POP, D::new);
  public static final ComponentType<P, IntStorage<P>> TP =
      define(P.class, 4, DeletionPolicy.IN_PLACE, P::new);

  // Four types with one page size, for views that walk aligned runs.
  public static final ComponentType<E, IntStorage<E>> TE =
      define(E.class, 8, DeletionPolicy.SWAP_AND_POP, E::new);
  public static final ComponentType<F, IntStorage<F>> TF =
      define(F.class, 8, DeletionPolicy.SWAP_AND_POP, F::new);
  public static final ComponentType<G, IntStorage<G>> TG =
      define(G.class, 8, DeletionPolicy.SWAP_AND_POP, G::new);
  public static final ComponentType<H, IntStorage<H>> TH =
      define(H.class, 8, DeletionPolicy.SWAP_AND_POP, H::new);
}
