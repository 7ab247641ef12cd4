package dev.phalanx.examples.particles;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;

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

  /** Comet heads (tag); their tails are their children in {@link #hierarchy}. */
  public final Comet_Storage comets;

  /** Comet tails: the offset of each from its parent (in-place deletion). */
  public final Attachment_Storage attachments;

  /** The registry's built-in hierarchy: comet heads and their tails. */
  public final Hierarchy hierarchy;

  /** Fetches (creating) every storage of the world from {@code registry}. */
  public Storages(final Registry registry) {
    positions = registry.storage(Position_Traits.TYPE);
    velocities = registry.storage(Velocity_Traits.TYPE);
    lifetimes = registry.storage(Lifetime_Traits.TYPE);
    frozen = registry.storage(Frozen_Traits.TYPE);
    glowing = registry.storage(Glowing_Traits.TYPE);
    comets = registry.storage(Comet_Traits.TYPE);
    attachments = registry.storage(Attachment_Traits.TYPE);
    hierarchy = Hierarchy.of(registry);
  }
}
