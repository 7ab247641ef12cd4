package dev.phalanx.examples.particles;

import java.util.function.LongPredicate;

/**
 * What one client of a multiplayer world sees: the entities within {@value #RADIUS} units of its
 * viewpoint, a point that circles the world's centre ({@link #moveTo}); the clients' viewpoints are
 * spread evenly around the circle. It is the interest set of that client's {@link
 * dev.phalanx.ecs.snapshot.AckedDeltaWriter}.
 *
 * <p>A comet's tail particle is seen where its comet is: a comet and its tail enter and leave a
 * client's view together, so the tail's {@link Attachment} never names a comet the client lacks.
 */
public final class Viewpoint implements LongPredicate {

  /** How far a client sees, in world units (the world is {@value Rules#SIZE} across). */
  public static final float RADIUS = 80f;

  /** How far from the world's centre the viewpoints circle. */
  public static final double ORBIT = 260.0;

  /** The viewpoints' angular speed, in radians per frame. */
  public static final double SPEED = 0.01;

  private final Storages storages;
  private final double phase;
  private float x;
  private float y;

  /**
   * Creates the viewpoint of client {@code client} of {@code clients}, at frame 0.
   *
   * @param storages the world's storages
   * @param client the client's number, from 0
   * @param clients how many clients there are
   */
  public Viewpoint(final Storages storages, final int client, final int clients) {
    this.storages = storages;
    this.phase = 2 * Math.PI * client / clients;
    moveTo(0);
  }

  /** Moves the viewpoint to where it is at frame {@code frame}. */
  public void moveTo(final int frame) {
    final double angle = phase + SPEED * frame;
    x = (float) (Rules.SIZE / 2 + ORBIT * Math.cos(angle));
    y = (float) (Rules.SIZE / 2 + ORBIT * Math.sin(angle));
  }

  /** {@return whether the client sees {@code entity} now} */
  @Override
  public boolean test(final long entity) {
    final long anchor =
        storages.attachments.contains(entity) ? storages.tails.target(entity) : entity;
    if (!storages.positions.contains(anchor)) {
      return false;
    }
    final float dx = storages.positions.x(anchor) - x;
    final float dy = storages.positions.y(anchor) - y;
    return dx * dx + dy * dy <= RADIUS * RADIUS;
  }
}
