package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.GroupQuery;

/** {@link Steered} as a non-owning group: the optional terms' alignments are kept across passes. */
@GroupQuery(
    get = Heading.class,
    optional = {Boost.class, Trail.class})
interface SteeredMembers {}
