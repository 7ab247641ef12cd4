package dev.phalanx.ecs.processor.base;

import java.util.ArrayList;
import java.util.List;
import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * The diagnostics found for one element, each coded ({@code [PhalanxXxx]}) and placed on the most
 * specific location: an element, an annotation on it, or one value of that annotation. Every
 * message the processor prints goes through a report: validators collect instead of printing, so
 * that every problem of a declaration surfaces in one compilation.
 *
 * <p>A warning is dropped when the element or one enclosing it carries
 * {@code @SuppressWarnings("PhalanxXxx")} with the warning's code (or {@code "phalanx"} for all).
 */
public final class ValidationReport {

  /**
   * A place in source that no element stands for (a local class, which javac enters only after
   * annotation processing), with its own way of printing.
   */
  @FunctionalInterface
  public interface Location {
    /**
     * Prints {@code message} at this place.
     *
     * @param kind the kind of diagnostic
     * @param message the message
     */
    void print(Diagnostic.Kind kind, String message);
  }

  /** One diagnostic and where it points. */
  private record Item(
      Diagnostic.Kind kind,
      String message,
      Element element,
      AnnotationMirror annotation,
      AnnotationValue value,
      Location location) {}

  private final List<Item> items = new ArrayList<>();
  private boolean errors;

  /** Creates an empty report. */
  public ValidationReport() {}

  /**
   * Records an error on {@code element}.
   *
   * @param message the coded message
   * @param element where the error points
   */
  public void error(final String message, final Element element) {
    error(message, element, null, null);
  }

  /**
   * Records an error on {@code element}, or on {@code value} of its {@code annotation} when a value
   * is given (javac places a message on an annotation without a value at the element anyway).
   *
   * @param message the coded message
   * @param element where the error points
   * @param annotation the annotation on {@code element} that holds {@code value}, or {@code null}
   * @param value the annotation value the error points at, or {@code null} for the element
   */
  public void error(
      final String message,
      final Element element,
      final AnnotationMirror annotation,
      final AnnotationValue value) {
    code(message);
    items.add(new Item(Diagnostic.Kind.ERROR, message, element, annotation, value, null));
    errors = true;
  }

  /**
   * Records an error at {@code location}.
   *
   * @param message the coded message
   * @param location where the error points
   */
  public void error(final String message, final Location location) {
    code(message);
    items.add(new Item(Diagnostic.Kind.ERROR, message, null, null, null, location));
    errors = true;
  }

  /**
   * Records a warning on {@code element}, unless the element suppresses its code.
   *
   * @param message the coded message
   * @param element where the warning points; it and its enclosing elements are checked for
   *     {@code @SuppressWarnings}
   */
  public void warning(final String message, final Element element) {
    if (!suppressed(code(message), element)) {
      items.add(new Item(Diagnostic.Kind.WARNING, message, element, null, null, null));
    }
  }

  /** {@return whether no error was recorded (warnings may have been)} */
  public boolean isClean() {
    return !errors;
  }

  /**
   * Prints every diagnostic to {@code messager}, in the order found, and forgets them.
   *
   * @param messager the compiler's messager
   */
  public void printMessagesTo(final Messager messager) {
    for (final Item item : items) {
      if (null != item.location()) {
        item.location().print(item.kind(), item.message());
      } else if (null != item.value()) {
        messager.printMessage(
            item.kind(), item.message(), item.element(), item.annotation(), item.value());
      } else {
        messager.printMessage(item.kind(), item.message(), item.element());
      }
    }
    items.clear();
  }

  /** Returns the code of a message, {@code PhalanxXxx} for {@code "[PhalanxXxx] ..."}. */
  static String code(final String message) {
    final int end = message.indexOf(']');
    if (!message.startsWith("[") || end < 0) {
      throw new IllegalArgumentException("uncoded diagnostic: " + message);
    }
    return message.substring(1, end);
  }

  private static boolean suppressed(final String code, final Element element) {
    for (Element current = element; null != current; current = current.getEnclosingElement()) {
      final SuppressWarnings suppress = current.getAnnotation(SuppressWarnings.class);
      if (null != suppress) {
        for (final String value : suppress.value()) {
          if (value.equals(code) || "phalanx".equals(value)) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
