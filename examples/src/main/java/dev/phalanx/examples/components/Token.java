package dev.phalanx.examples.components;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.Empty;

/**
 * A field-less type whose identity matters: {@code empty = Empty.STORE} disables the empty-type
 * optimization, so the storage keeps each instance and {@code get} returns the one stored.
 */
@Component(empty = Empty.STORE)
public final class Token {
  /** Creates a token. */
  public Token() {}
}
