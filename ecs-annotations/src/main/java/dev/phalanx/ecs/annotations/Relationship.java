package dev.phalanx.ecs.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a {@link Component} as a relationship kind.
 *
 * <p>On a component with fields, an <b>exclusive</b> kind: its one {@link EntityRef} field names
 * the target, and each entity holding the component (a source) has one target of the kind, like a
 * {@code ChildOf}. The generated storage extends the runtime's {@code
 * dev.phalanx.ecs.relation.RelationshipStorage}: the registry keeps each target's sources in step
 * ({@code Relation.of(registry, Foo_Traits.TYPE).sources(target)}), refuses a target that is not
 * live, and applies {@link #onTargetDestroyed()} when a target is destroyed. The target field gets
 * no generated setter: change a source's target with {@code replace}.
 *
 * <p>On a tag (a component without fields), a <b>pair</b> kind: a source has any number of targets,
 * as flecs's {@code (Likes, Bob)}. The generated storage extends {@code
 * dev.phalanx.ecs.relation.PairStorage}, which declares the kind with these policies in each
 * registry that creates it: {@code Pairs.of(registry, Likes_Traits.TYPE)} adds and removes pairs.
 *
 * <h2>Diagnostics</h2>
 *
 * <ul>
 *   <li>{@code [PhalanxRelationshipTarget]}: a component with fields does not have exactly one
 *       {@link EntityRef} field.
 *   <li>{@code [PhalanxRelationshipStorage]}: the component keeps its instances whole ({@code empty
 *       = Empty.STORE}): a relationship's storage is a tag's or is generated field by field.
 * </ul>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Relationship {

  /** What happens to the sources when their target is destroyed. */
  enum OnTargetDestroyed {
    /** Each source loses the relationship (its component is removed). */
    REMOVE,
    /** Each source is destroyed too, and so on along linked kinds (a linked despawn). */
    DESTROY_SOURCES,
    /** The destroy is refused while a source that stays names the target. */
    REFUSE
  }

  /**
   * {@return what happens to the sources when their target is destroyed; removing the relationship
   * by default}
   */
  OnTargetDestroyed onTargetDestroyed() default OnTargetDestroyed.REMOVE;

  /**
   * {@return whether a chain of this kind may not come back to where it started (an entity naming
   * itself, or naming one whose chain names it); checked before each write, O(chain length)}
   */
  boolean acyclic() default false;
}
