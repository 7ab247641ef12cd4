package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Guards;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * A group that owns no storage: it keeps its members in a sparse set of its own, so it never moves
 * components and any type (in-place storages included) may take part. Iteration walks the member
 * set and looks components up, like a view, but without testing each entity.
 *
 * <h2>Costs</h2>
 *
 * <p>{@code each}: O(n) over members, no allocation. Membership changes: O(get + excluded). Memory:
 * one sparse set (a sparse entry and a packed {@code long} per member).
 */
public final class NonOwningGroup extends Group {

  private final MemberSet members = new MemberSet();

  NonOwningGroup(final Storage<?>[] get, final Storage<?>[] exclude, final Guards guards) {
    super(new Storage<?>[0], get, exclude);
    members.guards = guards;
  }

  /**
   * {@return the member set (positions {@code [0, size())}), for reading and for iterating with the
   * guard protocol of {@link SparseSet}; it changes only through the group's upkeep}
   */
  public SparseSet members() {
    return members;
  }

  SparseSet memberSet() {
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
  boolean containsLive(final long entity) {
    return members.positionOfLive(entity) >= 0;
  }

  @Override
  public long entityAt(final int position) {
    return members.at(position);
  }

  @Override
  public void each(final LongConsumer action) {
    final SparseSet set = members;
    set.beginIteration();
    try {
      // A counted loop: the guard keeps the member set at least as large as the visited position.
      for (int position = set.size() - 1; position >= 0; position--) {
        final long entity = set.packed()[position];
        set.visit(position);
        action.accept(entity);
      }
    } finally {
      set.endIteration();
    }
  }

  /**
   * Sorts the members (not the storages) by entity. The observed storages and the member set are
   * locked while the comparator runs: if it throws nothing has moved; if it tries a structural
   * change it gets a {@link java.util.ConcurrentModificationException}.
   *
   * @param comparator orders two members
   */
  public void sort(final EntityComparator comparator) {
    lockAll("the comparator of a sort of");
    try {
      members.sort(comparator);
    } finally {
      unlockAll();
    }
  }

  @Override
  void enter(final long entity) {
    members.append(entity);
  }

  @Override
  void leave(final long entity) {
    members.removeAt(members.positionOfLive(entity));
  }

  @Override
  void reset() {
    members.removeAll();
  }

  @Override
  void verify(final List<String> problems) {
    members.verify(problems);
    verifyMembership(problems);
  }

  /** The member set: a plain swap-and-pop sparse set. */
  private static final class MemberSet extends SparseSet {
    MemberSet() {
      super(DeletionPolicy.SWAP_AND_POP);
    }

    @Override
    public String describe() {
      return "member set of a non-owning group";
    }
  }
}
