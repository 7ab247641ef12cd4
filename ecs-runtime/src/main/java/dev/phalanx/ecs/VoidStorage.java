package dev.phalanx.ecs;

/**
 * A named tag storage with no component class, EnTT's {@code storage<void>}: a typeless pool usable
 * in views and groups, created with {@link dev.phalanx.ecs.Registry#storage(String)}. {@code get}
 * returns {@code null}.
 */
public final class VoidStorage extends EmptyStorage<Void> {

  /**
   * Creates an empty storage for a named void type.
   *
   * @param type the named type, from {@link ComponentType#named}
   */
  public VoidStorage(final ComponentType<Void, ?> type) {
    super(type, null);
  }

  @Override
  public String describe() {
    return "void storage '" + type().name() + "'";
  }
}
