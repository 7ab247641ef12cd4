package dev.phalanx.examples.docs.quickstart;

import dev.phalanx.ecs.annotations.Component;

// tag::tag[]
@Component // no fields: a tag, stored without payload
public final class Asleep {}
// end::tag[]
