package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.internal.Failures;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The change tick pages of a tracked generated storage, for a scan page by page ({@link
 * DeltaWriter}'s changed elements): generated storages of {@code Component(tracked = true)} types
 * have a public {@code long[][] changeTickPages()}, laid out as their field pages, which the core's
 * {@link Storage} does not declare. Its handle is looked up once per storage class (a public
 * look-up: a class in a package its module does not export, or a storage without the method, has
 * none, and the caller reads {@link Storage#changeTickAt} per element instead); a call then costs
 * one class-value read and one handle call. Package-private.
 */
final class TickPages {

  private static final MethodType PAGES = MethodType.methodType(long[][].class);

  private static final ClassValue<MethodHandle> HANDLES =
      new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(final Class<?> type) {
          try {
            return MethodHandles.publicLookup()
                .findVirtual(type, "changeTickPages", PAGES)
                .asType(MethodType.methodType(long[][].class, Storage.class));
          } catch (final NoSuchMethodException | IllegalAccessException e) {
            return null;
          }
        }
      };

  private TickPages() {}

  /** {@return the tick pages of {@code storage}, or {@code null} if it does not hand them out} */
  static long[][] of(final Storage<?> storage) {
    if (!storage.isTracked()) {
      return null;
    }
    final MethodHandle handle = HANDLES.get(storage.getClass());
    if (null == handle) {
      return null;
    }
    try {
      return (long[][]) handle.invokeExact(storage);
    } catch (final Throwable thrown) {
      throw Failures.propagate(thrown);
    }
  }
}
