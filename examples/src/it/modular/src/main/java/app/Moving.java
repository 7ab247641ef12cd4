// src/main/java/app/Moving.java
package app;

import dev.phalanx.ecs.annotations.GroupQuery;

@GroupQuery(owned = {Position.class, Velocity.class})
public interface Moving {} // generates MovingQuery
