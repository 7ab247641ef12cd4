package dev.phalanx.examples.docs.quickstart;

import dev.phalanx.ecs.annotations.Component;

// tag::position[]
@Component
public record Position(float x, float y) {}
// end::position[]
