package dev.phalanx.ecs.processor.validation;

import java.util.ArrayList;
import java.util.List;
import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * The errors found in one component, each placed on the most specific location: an element, an
 * annotation on it, or one value of that annotation. Validators collect instead of printing, so that
 * every error of a type surfaces in one compilation.
 */
public final class ValidationReport {

  /** One error and where it points. */
  private record Item(String message, Element element, AnnotationMirror annotation, AnnotationValue value) {}

  private final List<Item> items = new ArrayList<>();

  /** Records an error on {@code element}. */
  public void error(final String message, final Element element) {
    items.add(new Item(message, element, null, null));
  }

  /** Records an error on one value of an annotation of {@code element}. */
  public void error(
      final String message, final Element element, final AnnotationMirror annotation, final AnnotationValue value) {
    items.add(new Item(message, element, annotation, value));
  }

  /** Returns whether no error was recorded. */
  public boolean isClean() {
    return items.isEmpty();
  }

  /** Prints every error to {@code messager}, in the order found. */
  public void printMessagesTo(final Messager messager) {
    for (final Item item : items) {
      if (null != item.value()) {
        messager.printMessage(Diagnostic.Kind.ERROR, item.message(), item.element(), item.annotation(), item.value());
      } else {
        messager.printMessage(Diagnostic.Kind.ERROR, item.message(), item.element());
      }
    }
  }
}
