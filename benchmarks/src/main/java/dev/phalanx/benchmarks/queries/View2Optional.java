package dev.phalanx.benchmarks.queries;

import dev.phalanx.benchmarks.components.Position;
import dev.phalanx.benchmarks.components.Scale;
import dev.phalanx.benchmarks.components.Velocity;
import dev.phalanx.ecs.annotations.ViewQuery;

/**
 * {@link View2} with Scale as an optional term: the visitor gets Scale's cursor, or null
 * (IterateForms' {@code optional2}).
 */
@ViewQuery(
    include = {Position.class, Velocity.class},
    optional = Scale.class)
public interface View2Optional {}
