package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.ViewQuery;

/**
 * Comet tail particles: entities with an {@link Attachment} (the link to their parent) and a {@link
 * Position}. The processor generates {@code FollowersQuery}, a view led by the smaller storage,
 * here the few attachments rather than the million positions.
 */
@ViewQuery(
    include = {Attachment.class, Position.class},
    readOnly = Attachment.class)
public interface Followers {}
