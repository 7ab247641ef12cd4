package dev.phalanx.ecs.relation;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EntityLinks;
import dev.phalanx.ecs.Storage;
import java.util.Objects;

/**
 * The base of the storages the processor generates for a relationship kind: a component declared
 * with {@code @Relationship}, whose one {@code @EntityRef} field names the target. The storage's
 * elements are the forward side (each source's target) and the truth; its {@link Relation} keeps
 * the reverse side (each target's sources) in step through the storage's signals, and refuses,
 * before anything changes, a target that is not live or that would close a cycle of an acyclic
 * kind.
 *
 * <p>Generated code has no setter for the target field: a source changes target through {@code
 * replace} (or {@code patch}), which publishes an update the relation follows.
 *
 * @param <T> the relationship's component class
 */
public abstract class RelationshipStorage<T> extends Storage<T> {

  private final OnTargetDestroyed onTargetDestroyed;
  private final boolean acyclic;
  private Relation<T> relation;

  /**
   * Creates the storage of a relationship kind; for generated code.
   *
   * @param type the component type
   * @param onTargetDestroyed what happens to the sources when a target is destroyed
   * @param acyclic whether a chain of this kind's relationships may not come back to its start
   */
  protected RelationshipStorage(
      final ComponentType<T, ?> type,
      final OnTargetDestroyed onTargetDestroyed,
      final boolean acyclic) {
    super(type);
    this.onTargetDestroyed = Objects.requireNonNull(onTargetDestroyed, "onTargetDestroyed");
    this.acyclic = acyclic;
    announceRemovals();
  }

  /**
   * {@return the target of the element at {@code position}} O(1).
   *
   * @param position a position that holds an element
   */
  public abstract long targetAt(int position);

  /** {@return the target of the value {@link #stage} read last; for {@link #checkStaged}} */
  @Override
  protected abstract long stagedTarget();

  /** {@return this kind's relation, or null while the storage belongs to no registry} */
  @Override
  public final EntityLinks entityLinks() {
    return relation;
  }

  /** {@return true: a relationship kind's elements are links, streamed with their sources} */
  @Override
  public final boolean isRelationship() {
    return true;
  }

  /** {@return what happens to this kind's sources when their target is destroyed} */
  public final OnTargetDestroyed onTargetDestroyed() {
    return onTargetDestroyed;
  }

  /** {@return whether a chain of this kind may not come back to where it started} */
  public final boolean acyclic() {
    return acyclic;
  }

  /**
   * {@return the relation that keeps this kind's reverse side}
   *
   * @throws IllegalStateException if the storage belongs to no registry
   */
  public final Relation<T> relation() {
    if (null == relation) {
      throw new IllegalStateException(
          describe() + " belongs to no registry: a relationship is kept by a registry's storage");
    }
    return relation;
  }

  /**
   * Checks, changing nothing, that {@code source} may name {@code target}: the target is live, its
   * destroy is not under way ({@link dev.phalanx.ecs.Registry#isBeingDestroyed}), and, for an
   * acyclic kind, is not {@code source} nor has {@code source} up its chain. For generated code,
   * before any write of a target.
   *
   * @param source the entity whose relationship is written
   * @param target the target it would name
   * @param operation what is being done, for the message
   * @throws IllegalArgumentException naming the source, the kind and the rule broken
   */
  protected final void checkTarget(final long source, final long target, final String operation) {
    if (null != relation) {
      relation.checkTarget(source, target, operation);
    }
  }

  @Override
  protected final void checkStaged(final long entity, final String operation) {
    checkTarget(entity, stagedTarget(), operation);
  }

  /** Unlinks the source from its target's list, by every removal path (see the superclass). */
  @Override
  protected final void elementRemoving(final long entity, final int position) {
    if (null != relation) {
      relation.unlinking(entity);
    }
  }

  @Override
  protected final void bound() {
    relation = Relations.of(registry()).attach(this);
  }

  @Override
  protected final void restored() {
    if (null != relation) {
      relation.rebuild();
    }
  }

  /**
   * Follows an in-place write of the element at {@code position} (a change set's row, a restore):
   * the relation relinks the source if its target changed. Generated storages that keep change
   * ticks call it from their own override.
   *
   * @param position the element's position
   */
  @Override
  protected void markWritten(final int position) {
    if (null != relation) {
      relation.written(position);
    }
  }
}
