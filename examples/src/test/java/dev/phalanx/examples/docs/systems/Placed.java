package dev.phalanx.examples.docs.systems;

import dev.phalanx.ecs.annotations.ViewQuery;
import dev.phalanx.examples.docs.quickstart.Asleep;
import dev.phalanx.examples.docs.quickstart.Position;

// tag::read-only-query[]
@ViewQuery(include = Position.class, exclude = Asleep.class, readOnly = Position.class)
public interface Placed {} // PlacedQuery declares: reads Position; iterates Position and Asleep
// end::read-only-query[]
