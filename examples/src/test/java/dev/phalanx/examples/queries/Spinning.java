package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.GroupQuery;

/** A partial-owning group: {@link Spin} owned, {@link Velocity} reached through its storage. */
@GroupQuery(owned = Spin.class, get = Velocity.class)
interface Spinning {}
