package dev.phalanx.ecs;

/**
 * Receives the entity references a storage holds: for each element, each of its fields marked
 * {@code @EntityRef} (and the links of {@link dev.phalanx.ecs.hierarchy.Hierarchy Hierarchy}
 * nodes). See {@link Storage#eachEntityRef}.
 */
@FunctionalInterface
public interface EntityRefVisitor {
  /**
   * Called once per reference.
   *
   * @param owner the entity whose component holds the reference
   * @param field the name of the field holding it
   * @param reference the handle stored there; {@link Entity#NULL} for none
   */
  void visit(long owner, String field, long reference);
}
