package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.GroupQuery;

/** A non-owning group with optional terms, looked up per member. */
@GroupQuery(
    get = Position.class,
    optional = {Boost.class, Marked.class},
    exclude = Frozen.class)
interface BoostedMembers {}
