package dev.phalanx.ecs.processor.generation;

import dev.phalanx.ecs.processor.model.ComponentModel;
import javax.lang.model.element.Element;
import javax.lang.model.util.Elements;

/**
 * A generator of one file per {@code @Component}: the file goes in the component's package, its
 * originating element is the component (one per file, as isolating incremental processing needs),
 * and it suppresses deprecation warnings when the component's fields name deprecated types.
 */
abstract class ComponentFileGenerator extends SourceFileGenerator<ComponentModel> {

  ComponentFileGenerator(final Elements elements) {
    super(elements);
  }

  @Override
  protected final Element originatingElement(final ComponentModel model) {
    return model.element();
  }

  @Override
  protected final String packageName(final ComponentModel model) {
    return model.packageName();
  }

  @Override
  protected final boolean usesDeprecated(final ComponentModel model) {
    return model.usesDeprecated();
  }
}
