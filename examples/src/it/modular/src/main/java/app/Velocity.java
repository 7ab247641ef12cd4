// src/main/java/app/Velocity.java
package app;

import dev.phalanx.ecs.annotations.Component;

@Component
public record Velocity(float dx, float dy) {}
