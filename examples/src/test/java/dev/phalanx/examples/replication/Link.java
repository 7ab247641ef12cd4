package dev.phalanx.examples.replication;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;

/** A tracked swap-and-pop component with a reference, for replication tests. */
@Component(tracked = true, pageSize = 16)
public record Link(@EntityRef long other, int weight) {}
