package dev.phalanx.examples.relations;

import dev.phalanx.ecs.annotations.Component;

/**
 * A ship escorting others: destroying an escorted ship destroys its escorts (a pair kind with
 * DESTROY_SOURCES).
 */
@Component
public final class Escorts {}
