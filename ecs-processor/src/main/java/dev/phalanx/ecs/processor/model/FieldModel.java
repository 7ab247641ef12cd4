package dev.phalanx.ecs.processor.model;

import com.palantir.javapoet.TypeName;

/**
 * One stored field of a component.
 *
 * @param name the field's (or record component's) name
 * @param type the field's type as users see it ({@code float}, {@code List<String>})
 * @param slotType the element type of the field's pages: {@code type} itself, or the same class
 *     with wildcard arguments for a parameterized type ({@code List<?>}), since Java cannot create
 *     arrays of a parameterized type
 * @param rawType the erasure, used for the {@code Class} literal in the traits
 * @param read how to read the field from an instance
 * @param write how to write the field into an instance
 * @param entityRef whether the field is marked {@code @EntityRef}
 */
public record FieldModel(
    String name,
    TypeName type,
    TypeName slotType,
    TypeName rawType,
    Access read,
    Access write,
    boolean entityRef) {

  /** {@return whether reading a slot needs an (unchecked) cast back to {@link #type()}} */
  public boolean needsCast() {
    return !type.equals(slotType);
  }

  /** {@return whether the field is of a primitive type (nothing to release on removal)} */
  public boolean primitive() {
    return type.isPrimitive();
  }
}
