package dev.phalanx.ecs.processor.generation;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.TypeName;
import dev.phalanx.ecs.processor.base.Names;
import dev.phalanx.ecs.processor.model.Access;
import dev.phalanx.ecs.processor.model.FieldModel;

/** Small code fragments shared by the generators. */
final class Code {

  /** The JVM's limit of parameter slots of a method, {@code this} included. */
  static final int MAX_SLOTS = 255;

  private Code() {}

  /** Returns {@code base}, with {@code $} appended until it is not in {@code taken}. */
  static String fresh(final String base, final java.util.Set<String> taken) {
    String name = base;
    while (taken.contains(name)) {
      name += "$";
    }
    return name;
  }

  /** Returns the type of a field's page array: {@code float[][]} for a {@code float} field. */
  static TypeName pagesType(final FieldModel field) {
    return ArrayTypeName.of(ArrayTypeName.of(field.slotType()));
  }

  /**
   * Returns an array creation expression {@code new E[length]} followed by {@code extra} empty
   * dimensions, written correctly when {@code element} is itself an array ({@code new int[n][]},
   * not {@code new int[][n]}).
   */
  static CodeBlock newArray(final TypeName element, final String length, final int extra) {
    TypeName base = element;
    int dimensions = extra;
    while (base instanceof ArrayTypeName array) {
      base = array.componentType();
      dimensions++;
    }
    return CodeBlock.of("new $T[$L]$L", base, length, "[]".repeat(dimensions));
  }

  /** Returns the slot of {@code field} at {@code page}/{@code offset}, cast back if needed. */
  static CodeBlock slot(
      final FieldModel field, final String qualifier, final String page, final String offset) {
    final CodeBlock raw =
        CodeBlock.of("$L$L[$L][$L]", qualifier, Names.pages(field.name()), page, offset);
    return field.needsCast() ? CodeBlock.of("($T) $L", field.type(), raw) : raw;
  }

  /** Returns the expression reading {@code field} from the instance {@code value}. */
  static CodeBlock read(final FieldModel field, final String value) {
    return Access.Kind.FIELD == field.read().kind()
        ? CodeBlock.of("$L.$L", value, field.read().name())
        : CodeBlock.of("$L.$L()", value, field.read().name());
  }

  /** Returns the statement writing {@code expression} into {@code field} of {@code value}. */
  static CodeBlock write(final FieldModel field, final String value, final CodeBlock expression) {
    return Access.Kind.FIELD == field.write().kind()
        ? CodeBlock.of("$L.$L = $L", value, field.write().name(), expression)
        : CodeBlock.of("$L.$L($L)", value, field.write().name(), expression);
  }
}
