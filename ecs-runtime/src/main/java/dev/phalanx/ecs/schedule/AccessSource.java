package dev.phalanx.ecs.schedule;

/**
 * Something that knows which components it touches and how: every query the processor generates
 * implements it, from its declaration ({@code include}, {@code owned}, {@code get}, {@code
 * exclude}, {@code readOnly}), so a system that uses a query declares its access by naming it
 * ({@link SystemDeclaration#uses}) instead of listing components by hand.
 */
@FunctionalInterface
public interface AccessSource {

  /**
   * Adds this source's access to {@code access}.
   *
   * @param access the builder of a system's access
   */
  void declareAccess(Access.Builder access);
}
