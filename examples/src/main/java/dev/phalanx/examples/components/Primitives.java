package dev.phalanx.examples.components;

import dev.phalanx.ecs.annotations.Component;

/**
 * One field of each primitive type, each stored in its own primitive page array.
 *
 * @param flag a boolean
 * @param tiny a byte
 * @param small a short
 * @param letter a char
 * @param count an int
 * @param big a long
 * @param ratio a float
 * @param precise a double
 */
@Component(pageSize = 16)
public record Primitives(
    boolean flag,
    byte tiny,
    short small,
    char letter,
    int count,
    long big,
    float ratio,
    double precise) {}
