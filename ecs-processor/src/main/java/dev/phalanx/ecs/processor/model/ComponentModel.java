package dev.phalanx.ecs.processor.model;

import com.palantir.javapoet.ClassName;
import java.util.List;
import javax.lang.model.element.TypeElement;

/**
 * A validated component: everything the generators need.
 *
 * @param element the annotated class, recorded as the originating element of every generated file
 * @param component the component class
 * @param packageName its package (where the generated classes go)
 * @param flatName the nesting chain joined with underscores ({@code Outer_Inner})
 * @param pageSize elements per page, a positive power of two
 * @param inPlaceDelete whether the storage uses {@code DeletionPolicy.IN_PLACE}
 * @param kind how the payload is kept
 * @param fields the stored fields in declaration order (empty unless {@code kind} is FIELDS)
 * @param construction how instances are built
 * @param record whether the component is a record
 * @param usesDeprecated whether generated code refers to a deprecated class or member (the
 *     component, a field type, an accessor), so that it must suppress deprecation warnings to stay
 *     warning-free
 * @param tracked whether the storage records a change tick per element ({@code tracked = true})
 * @param relationship what {@code @Relationship} declares, or {@code null} for a plain component
 */
public record ComponentModel(
    TypeElement element,
    ClassName component,
    String packageName,
    String flatName,
    int pageSize,
    boolean inPlaceDelete,
    StorageKind kind,
    List<FieldModel> fields,
    Construction construction,
    boolean record,
    boolean usesDeprecated,
    boolean tracked,
    RelationshipModel relationship) {

  /**
   * Copies the field list.
   *
   * @param element the annotated class, the originating element of every generated file
   * @param component the component class
   * @param packageName the component's package, where the generated classes go
   * @param flatName the nesting chain joined with underscores
   * @param pageSize elements per page, a positive power of two
   * @param inPlaceDelete whether the storage uses {@code DeletionPolicy.IN_PLACE}
   * @param kind how the payload is kept
   * @param fields the stored fields in declaration order; copied
   * @param construction how instances are built
   * @param record whether the component is a record
   * @param usesDeprecated whether generated code refers to a deprecated class or member
   * @param tracked whether the storage records a change tick per element
   * @param relationship what {@code @Relationship} declares, or {@code null} for a plain component
   */
  public ComponentModel {
    fields = List.copyOf(fields);
  }

  /**
   * {@return whether {@code field} is a relationship's target, which generated code never writes
   * but through whole-value writes}
   *
   * @param field a field of this component
   */
  public boolean isTarget(final FieldModel field) {
    return null != relationship && relationship.target().name().equals(field.name());
  }

  /** {@return the generated storage class, {@code Foo_Storage}} */
  public ClassName storage() {
    return ClassName.get(packageName, flatName + "_Storage");
  }

  /** {@return the generated cursor class, {@code Foo_Cursor} (FIELDS storages only)} */
  public ClassName cursor() {
    return ClassName.get(packageName, flatName + "_Cursor");
  }

  /**
   * {@return the generated read-only cursor class, {@code Foo_ReadCursor}, the sealed superclass of
   * {@code Foo_Cursor} without its setters (FIELDS storages only)}
   */
  public ClassName readCursor() {
    return ClassName.get(packageName, flatName + "_ReadCursor");
  }

  /** {@return the generated traits class, {@code Foo_Traits}} */
  public ClassName traits() {
    return ClassName.get(packageName, flatName + "_Traits");
  }

  /** {@return whether the storage keeps no payload} */
  public boolean empty() {
    return StorageKind.TAG == kind;
  }
}
