package dev.phalanx.ecs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Loads new copies of test classes in a class loader of their own, so that a test can ask {@link
 * ComponentType#of} about a class the JVM-wide registry of types has never seen, however many tests
 * (or mutation-testing runs in the same JVM) came before.
 */
public final class FreshClasses extends ClassLoader {

  private final Set<String> names;

  private FreshClasses(final Set<String> names) {
    super(FreshClasses.class.getClassLoader());
    this.names = names;
  }

  /**
   * Returns a fresh copy of {@code first}; {@code first}, {@code others} and the classes enclosing
   * them (which nested classes must reach) are loaded again by the same new loader, the rest comes
   * from the test class path.
   */
  public static Class<?> load(final Class<?> first, final Class<?>... others) {
    final Set<String> names = new HashSet<>();
    addWithEnclosing(names, first);
    for (final Class<?> other : others) {
      addWithEnclosing(names, other);
    }
    try {
      return Class.forName(first.getName(), false, new FreshClasses(names));
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void addWithEnclosing(final Set<String> names, final Class<?> javaClass) {
    for (Class<?> c = javaClass; null != c; c = c.getEnclosingClass()) {
      names.add(c.getName());
    }
  }

  @Override
  protected Class<?> loadClass(final String name, final boolean resolve)
      throws ClassNotFoundException {
    synchronized (getClassLoadingLock(name)) {
      if (!names.contains(name)) {
        return super.loadClass(name, resolve);
      }
      Class<?> loaded = findLoadedClass(name);
      if (null == loaded) {
        final byte[] bytes = bytesOf(name);
        loaded = defineClass(name, bytes, 0, bytes.length);
      }
      if (resolve) {
        resolveClass(loaded);
      }
      return loaded;
    }
  }

  private static byte[] bytesOf(final String name) throws ClassNotFoundException {
    final String resource = name.replace('.', '/') + ".class";
    try (InputStream in = FreshClasses.class.getClassLoader().getResourceAsStream(resource)) {
      if (null == in) {
        throw new ClassNotFoundException(name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
