package dev.phalanx.examples.tracking;

import dev.phalanx.ecs.annotations.GroupQuery;

/** Entities with a temperature and a mass, owned together. */
@GroupQuery(owned = {Temperature.class, Mass.class})
interface Cooling {}
