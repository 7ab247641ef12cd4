package dev.phalanx.examples.particles;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.relation.Relation;

/**
 * The typed storages of the particle world, fetched once from the registry. Each is a generated
 * class ({@code Position_Storage} and so on): its accessors are plain array reads and writes.
 */
public final class Storages {

  /** Where every entity is. */
  public final Position_Storage positions;

  /** How fast every root entity moves. */
  public final Velocity_Storage velocities;

  /** How long every root entity has left. */
  public final Lifetime_Storage lifetimes;

  /** Frozen dust (tag). */
  public final Frozen_Storage frozen;

  /** Glowing sparks (tag). */
  public final Glowing_Storage glowing;

  /** Comet heads (tag); their tails are the sources of {@link #tails}. */
  public final Comet_Storage comets;

  /** Comet tails: the comet of each and its offset from it (in-place deletion). */
  public final Attachment_Storage attachments;

  /** The reverse side of {@link #attachments}: each comet's tail particles. */
  public final Relation<Attachment> tails;

  /** Fetches (creating) every storage of the world from {@code registry}. */
  public Storages(final Registry registry) {
    positions = registry.storage(Position_Traits.TYPE);
    velocities = registry.storage(Velocity_Traits.TYPE);
    lifetimes = registry.storage(Lifetime_Traits.TYPE);
    frozen = registry.storage(Frozen_Traits.TYPE);
    glowing = registry.storage(Glowing_Traits.TYPE);
    comets = registry.storage(Comet_Traits.TYPE);
    attachments = registry.storage(Attachment_Traits.TYPE);
    tails = attachments.relation();
  }
}
