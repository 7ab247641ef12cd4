package dev.phalanx.ecs.processor.model;

/**
 * How generated code reads or writes one field of a component instance.
 *
 * @param kind the route
 * @param name the field or method name ({@code x}, {@code getX}, {@code setX}); empty for {@link
 *     Kind#CONSTRUCTOR}
 */
public record Access(Kind kind, String name) {

  /** The route. */
  public enum Kind {
    /** {@code value.x}, or {@code value.x = v}. */
    FIELD,
    /** {@code value.getX()}, or {@code value.setX(v)}. */
    METHOD,
    /** Written only through the all-fields constructor. */
    CONSTRUCTOR
  }

  /**
   * {@return direct field access}
   *
   * @param name the field's name
   */
  public static Access field(final String name) {
    return new Access(Kind.FIELD, name);
  }

  /**
   * {@return access through a getter or setter}
   *
   * @param name the getter's or setter's name
   */
  public static Access method(final String name) {
    return new Access(Kind.METHOD, name);
  }

  /** {@return write access through the constructor} */
  public static Access constructor() {
    return new Access(Kind.CONSTRUCTOR, "");
  }
}
