package dev.phalanx.ecs.relation;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EmptyStorage;
import java.util.Objects;

/**
 * The base of the storages the processor generates for a pair kind: a tag component declared with
 * {@code @Relationship}, whose sources each have any number of targets, as flecs's {@code (Likes,
 * Bob)}. The storage holds the sources that have at least one pair, and declares the kind in its
 * registry ({@link Pairs#declare}) with the annotation's policies as soon as the registry creates
 * it, so that {@code Pairs.of(registry, Likes_Traits.TYPE)} finds it with nothing declared by hand.
 *
 * <p>Pairs are added and removed through {@link Pairs}; an emplace of the tag by hand is refused by
 * the kind, as for a kind declared at run time.
 *
 * @param <T> the kind's tag class
 */
public abstract class PairStorage<T> extends EmptyStorage<T> {

  private final OnTargetDestroyed onTargetDestroyed;
  private final boolean acyclic;

  /**
   * Creates the storage of a pair kind; for generated code.
   *
   * @param type the tag's component type
   * @param instance the instance {@code get} returns, or {@code null}
   * @param onTargetDestroyed what happens to a pair when its target is destroyed
   * @param acyclic whether a chain of this kind's pairs may not come back to its start
   */
  protected PairStorage(
      final ComponentType<T, ?> type,
      final T instance,
      final OnTargetDestroyed onTargetDestroyed,
      final boolean acyclic) {
    super(type, instance);
    this.onTargetDestroyed = Objects.requireNonNull(onTargetDestroyed, "onTargetDestroyed");
    this.acyclic = acyclic;
  }

  /** {@return what happens to a pair of this kind when its target is destroyed} */
  public final OnTargetDestroyed onTargetDestroyed() {
    return onTargetDestroyed;
  }

  /** {@return whether a chain of this kind's pairs may not come back to where it started} */
  public final boolean acyclic() {
    return acyclic;
  }

  /** Declares the kind in the registry that just created this storage. */
  @Override
  @SuppressWarnings("unchecked") // this storage's own type, whose storages are EmptyStorages
  protected final void bound() {
    Pairs.declare(
        registry(),
        (ComponentType<T, ? extends EmptyStorage<T>>) (ComponentType<T, ?>) type(),
        onTargetDestroyed,
        acyclic);
  }
}
