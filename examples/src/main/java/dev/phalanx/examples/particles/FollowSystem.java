package dev.phalanx.examples.particles;

/**
 * Moves every comet tail particle to its comet's position plus its offset, through the generated
 * {@link FollowersQuery} (a view of {@code Attachment} and {@code Position}).
 *
 * <p>A view suits this step: the tail particles are few (a comet has {@link Rules#COMET_CHILDREN}),
 * the view is led by the smallest storage ({@code Attachment}), and each step follows the
 * relationship to its target anyway. The query positions a cursor on each tail particle's
 * components; the relationship's target, the comet, is a field of the attachment, and the comet's
 * position is read through the storage, by handle. {@link Followers} lists {@code Attachment} in
 * {@code readOnly}, so the visitor gets an {@code Attachment_ReadCursor}, which has no setters, and
 * the query declares a read of attachments to the schedule, not a write. Runs after the movement
 * system, so tails see where their comet is now.
 */
public final class FollowSystem {

  private final FollowersQuery followers;
  private final Position_Storage positions;
  // Created once: a method reference per frame would allocate.
  private final FollowersQuery.Visitor follow = this::follow;

  /** Creates the system. */
  public FollowSystem(final FollowersQuery followers) {
    this.followers = followers;
    this.positions = followers.positionStorage();
  }

  /** Moves every tail particle next to its comet. */
  public void run() {
    followers.each(follow);
  }

  private void follow(
      final long tail, final Attachment_ReadCursor link, final Position_Cursor position) {
    final long comet = link.comet();
    position.setX(Rules.wrap(positions.x(comet) + link.offsetX()));
    position.setY(Rules.wrap(positions.y(comet) + link.offsetY()));
  }
}
