package dev.phalanx.examples.particles;

import dev.phalanx.ecs.view.View;
import java.util.function.LongConsumer;

/**
 * Moves every comet tail particle to its parent's position plus its offset, through a view of
 * {@code Attachment} and {@code Position}.
 *
 * <p>A view suits this step: the children are few (a comet has {@link Rules#COMET_CHILDREN}), the
 * view is led by the smallest storage ({@code Attachment}), and each step follows a stored handle
 * to the parent anyway. Runs after the movement system, so children see where their parent is now.
 */
public final class FollowSystem {

  private final View followers;
  private final Position_Storage positions;
  private final Attachment_Storage attachments;
  // Created once: a capturing lambda per frame would allocate.
  private final LongConsumer follow = this::follow;

  /** Creates the system over {@code followers}, a view of Attachment and Position. */
  public FollowSystem(final View followers, final Position_Storage positions, final Attachment_Storage attachments) {
    this.followers = followers;
    this.positions = positions;
    this.attachments = attachments;
  }

  /** Moves every child next to its parent. */
  public void run() {
    followers.each(follow);
  }

  private void follow(final long child) {
    final long parent = attachments.parent(child);
    positions.setX(child, Rules.wrap(positions.x(parent) + attachments.offsetX(child)));
    positions.setY(child, Rules.wrap(positions.y(parent) + attachments.offsetY(child)));
  }
}
