package dev.phalanx.ecs.processor.model;

/**
 * What {@code @Relationship} declares about a component: its storage extends {@code
 * RelationshipStorage}, and its target field is read-only in generated code.
 *
 * @param onTargetDestroyed the name of the policy constant, as in the runtime's {@code
 *     OnTargetDestroyed}
 * @param acyclic whether cycles are refused
 * @param target the one {@code @EntityRef} field, the target
 */
public record RelationshipModel(String onTargetDestroyed, boolean acyclic, FieldModel target) {}
