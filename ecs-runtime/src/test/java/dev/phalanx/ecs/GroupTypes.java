package dev.phalanx.ecs;

/** Component types of the group tests: one record class per type, each holding an int. */
public final class GroupTypes {

  private GroupTypes() {}

  /** Every test record holds one int. */
  public interface Valued {
    int value();
  }

  public record A(int value) implements Valued {}

  public record B(int value) implements Valued {}

  public record C(int value) implements Valued {}

  public record D(int value) implements Valued {}

  public record E(int value) implements Valued {}

  public record F(int value) implements Valued {}

  public record G(int value) implements Valued {}

  public record H(int value) implements Valued {}

  public record X(int value) implements Valued {}

  public record Y(int value) implements Valued {}

  /** Stored with in-place deletion, and with 4-element pages to cross page boundaries often. */
  public record S(int value) implements Valued {}

  public static final ComponentType<A, ObjectStorage<A>> TA = ComponentType.object(A.class);
  public static final ComponentType<B, ObjectStorage<B>> TB = ComponentType.object(B.class);
  public static final ComponentType<C, ObjectStorage<C>> TC = ComponentType.object(C.class);
  public static final ComponentType<D, ObjectStorage<D>> TD = ComponentType.object(D.class);
  public static final ComponentType<E, ObjectStorage<E>> TE =
      ComponentType.object(E.class, ComponentTraits.DEFAULT.withPageSize(8));
  public static final ComponentType<F, ObjectStorage<F>> TF =
      ComponentType.object(F.class, ComponentTraits.DEFAULT.withPageSize(16));
  public static final ComponentType<G, ObjectStorage<G>> TG = ComponentType.object(G.class);
  public static final ComponentType<H, ObjectStorage<H>> TH = ComponentType.object(H.class);
  public static final ComponentType<X, ObjectStorage<X>> TX = ComponentType.object(X.class);
  public static final ComponentType<Y, ObjectStorage<Y>> TY = ComponentType.object(Y.class);
  public static final ComponentType<S, ObjectStorage<S>> TS =
      ComponentType.object(
          S.class, ComponentTraits.DEFAULT.withPolicy(DeletionPolicy.IN_PLACE).withPageSize(4));

  public static final ComponentType<?, ?>[] NONE = new ComponentType<?, ?>[0];

  public static ComponentType<?, ?>[] types(final ComponentType<?, ?>... types) {
    return types;
  }

  /** Builds a value of the record class of {@code type}. */
  @SuppressWarnings("unchecked") // each branch builds the record class of the matching type
  public static <T> T value(final ComponentType<T, ?> type, final int value) {
    final Class<?> c = type.javaClass();
    final Object result;
    if (c == A.class) {
      result = new A(value);
    } else if (c == B.class) {
      result = new B(value);
    } else if (c == C.class) {
      result = new C(value);
    } else if (c == D.class) {
      result = new D(value);
    } else if (c == E.class) {
      result = new E(value);
    } else if (c == F.class) {
      result = new F(value);
    } else if (c == G.class) {
      result = new G(value);
    } else if (c == H.class) {
      result = new H(value);
    } else if (c == X.class) {
      result = new X(value);
    } else if (c == Y.class) {
      result = new Y(value);
    } else {
      result = new S(value);
    }
    return (T) result;
  }

  /** Reads the int of a stored record. */
  public static int intOf(final Storage<?> storage, final long entity) {
    return ((Valued) storage.get(entity)).value();
  }
}
