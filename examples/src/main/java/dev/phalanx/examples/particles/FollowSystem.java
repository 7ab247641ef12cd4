package dev.phalanx.examples.particles;

import dev.phalanx.ecs.hierarchy.Hierarchy;

/**
 * Moves every comet tail particle to its parent's position plus its offset, through the generated
 * {@link FollowersQuery} (a view of {@code Attachment} and {@code Position}).
 *
 * <p>A view suits this step: the children are few (a comet has {@link Rules#COMET_CHILDREN}), the
 * view is led by the smallest storage ({@code Attachment}), and each step follows the hierarchy's
 * link to the parent anyway. The query positions a cursor on each child's components; the parent's
 * position is read through the storage, by handle. {@link Followers} lists {@code Attachment} in
 * {@code readOnly}, so the visitor gets an {@code Attachment_ReadCursor}, which has no setters, and
 * the query declares a read of attachments to the schedule, not a write. Runs after the movement
 * system, so children see where their parent is now.
 */
public final class FollowSystem {

  private final FollowersQuery followers;
  private final Position_Storage positions;
  private final Hierarchy hierarchy;
  // Created once: a method reference per frame would allocate.
  private final FollowersQuery.Visitor follow = this::follow;

  /** Creates the system. */
  public FollowSystem(final FollowersQuery followers, final Hierarchy hierarchy) {
    this.followers = followers;
    this.positions = followers.positionStorage();
    this.hierarchy = hierarchy;
  }

  /** Moves every child next to its parent. */
  public void run() {
    followers.each(follow);
  }

  private void follow(
      final long child, final Attachment_ReadCursor link, final Position_Cursor position) {
    final long parent = hierarchy.parent(child);
    position.setX(Rules.wrap(positions.x(parent) + link.offsetX()));
    position.setY(Rules.wrap(positions.y(parent) + link.offsetY()));
  }
}
