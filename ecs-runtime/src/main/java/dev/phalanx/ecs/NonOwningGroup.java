package dev.phalanx.ecs;

import java.util.function.LongConsumer;

/**
 * A group that owns no storage: it keeps its members in a sparse set of its own, so it never moves
 * components and any type (in-place storages included) may take part. Iteration walks the member set
 * and looks components up, like a view, but without testing each entity.
 *
 * <h2>Costs</h2>
 *
 * <p>{@code each}: O(n) over members, no allocation. Membership changes: O(get + excluded).
 * Memory: one sparse set (a sparse entry and a packed {@code long} per member).
 */
public final class NonOwningGroup extends Group {

  private final MemberSet members = new MemberSet();

  NonOwningGroup(final Storage<?>[] get, final Storage<?>[] exclude) {
    super(new Storage<?>[0], get, exclude);
  }

  /** Returns the member set (positions {@code [0, size())}). */
  public SparseSet members() {
    return members;
  }

  @Override
  public int size() {
    return members.size();
  }

  @Override
  public boolean contains(final long entity) {
    return members.contains(entity);
  }

  @Override
  public long entityAt(final int position) {
    return members.at(position);
  }

  @Override
  public void each(final LongConsumer action) {
    for (int position = members.size() - 1; position >= 0; position = Math.min(position - 1, members.size() - 1)) {
      final long entity = members.packed()[position];
      final int before = members.beginVisit();
      action.accept(entity);
      members.checkIteration(before, entity, position);
    }
  }

  /** Sorts the members (not the storages) by entity. */
  public void sort(final EntityComparator comparator) {
    members.sort(comparator);
  }

  @Override
  void enter(final long entity) {
    members.add(entity);
  }

  @Override
  void leave(final long entity) {
    members.delete(entity);
  }

  @Override
  void reset() {
    members.clearAll();
  }

  /** The member set: a plain swap-and-pop sparse set. */
  private static final class MemberSet extends SparseSet {
    MemberSet() {
      super(DeletionPolicy.SWAP_AND_POP);
    }

    void add(final long entity) {
      appendEntity(entity);
    }

    void delete(final long entity) {
      removeEntityAt(index(entity));
    }

    void clearAll() {
      clearEntities();
    }

    @Override
    public String describe() {
      return "member set of a non-owning group";
    }
  }
}
