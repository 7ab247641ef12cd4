// src/main/java/app/Position.java
package app;

import dev.phalanx.ecs.annotations.Component;

@Component
public record Position(float x, float y) {}
