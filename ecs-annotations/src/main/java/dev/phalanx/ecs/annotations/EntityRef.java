package dev.phalanx.ecs.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code long} field (or record component) of a {@link Component} as holding an entity
 * handle. The generated {@code Foo_Traits.ENTITY_REF_FIELDS} lists such fields, so that snapshot
 * loading can remap the handles to the entities of the loading registry.
 *
 * <h2>Diagnostics</h2>
 *
 * <ul>
 *   <li>{@code [PhalanxEntityRefType]}: the annotated field is not a {@code long}.
 * </ul>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface EntityRef {}
