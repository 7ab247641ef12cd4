package dev.phalanx.examples.tracking;

import dev.phalanx.ecs.annotations.Component;

/**
 * A tracked component: every write stamps the element with the registry's change tick.
 *
 * @param celsius the temperature
 */
@Component(tracked = true)
public record Temperature(float celsius) {}
