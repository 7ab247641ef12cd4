package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.ViewQuery;

/**
 * A view with two optional terms of its page size: each one's cursor walks a run that its storage
 * holds at the lead's positions, and is looked up per entity elsewhere.
 */
@ViewQuery(
    include = Heading.class,
    optional = {Boost.class, Trail.class},
    readOnly = Trail.class)
interface Steered {}
