package dev.phalanx.ecs.processor.model;

/**
 * What {@code @Relationship} declares about a component. On a component with fields, an exclusive
 * kind: its storage extends {@code RelationshipStorage}, and its target field is read-only in
 * generated code. On a tag, a pair kind (any number of targets per source): its storage extends
 * {@code PairStorage}, which declares the kind in its registry.
 *
 * @param onTargetDestroyed the name of the policy constant, as in the runtime's {@code
 *     OnTargetDestroyed}
 * @param acyclic whether cycles are refused
 * @param target the one {@code @EntityRef} field, the target; {@code null} for a pair kind
 */
public record RelationshipModel(String onTargetDestroyed, boolean acyclic, FieldModel target) {

  /** {@return whether the kind is a pair kind, declared on a tag} */
  public boolean pairs() {
    return null == target;
  }
}
