package dev.phalanx.examples.tracking;

import dev.phalanx.ecs.annotations.ViewQuery;

/** A view over temperatures and masses. */
@ViewQuery(include = {Mass.class, Temperature.class})
interface Warm {}
