package dev.phalanx.examples.relations;

import dev.phalanx.ecs.annotations.ViewQuery;
import dev.phalanx.examples.components.Position;

/** The docked ships that have a position: the cursor of {@link Docked} reads each one's carrier. */
@ViewQuery(include = {Docked.class, Position.class})
public interface DockedShips {}
