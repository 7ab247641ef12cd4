package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.ViewQuery;

/** A view with optional terms: a boost's cursor (read-only) or null, and whether it is marked. */
@ViewQuery(
    include = Position.class,
    optional = {Boost.class, Marked.class},
    exclude = Frozen.class,
    readOnly = Boost.class)
interface Boosted {}
