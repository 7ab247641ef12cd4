package dev.phalanx.examples.alignment;

import dev.phalanx.ecs.annotations.Component;

/** Hit points with in-place deletion: removals leave holes that later insertions fill. */
@Component(inPlaceDelete = true, pageSize = 8)
public record Health(int value) {}
