package dev.phalanx.examples.tracking;

import dev.phalanx.ecs.annotations.GroupQuery;

/**
 * The owning group of {@link Cooling}, declared read-only for {@link Temperature}: its visitor gets
 * a {@code Temperature_ReadCursor}, and no chunk pass stamps temperatures. A registry name of its
 * own, since it is never created beside {@code Cooling}.
 */
@GroupQuery(
    owned = {Temperature.class, Mass.class},
    readOnly = Temperature.class,
    registry = "gauges")
interface Gauges {}
