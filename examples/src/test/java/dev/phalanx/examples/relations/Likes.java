package dev.phalanx.examples.relations;

import dev.phalanx.ecs.annotations.Component;

/**
 * Who likes whom (flecs's classic pair): any number of targets per source; a pair goes when its
 * target does.
 */
@Component
public final class Likes {}
