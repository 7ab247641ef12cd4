package dev.phalanx.ecs.bridge;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Resolves package-private members of the runtime's own classes as {@link MethodHandle}s, through a
 * private lookup in the owner's package (allowed because every runtime package is in one module):
 * the one resolution path of the hook classes, {@link CoreHooks} for the core and the snapshot
 * package's {@code HierarchyHooks} for the hierarchy. Not exported, so only the runtime can use it.
 *
 * <p>Meant for class initialisation only: a hook class keeps each handle in a {@code static final}
 * field, where it is a constant to the JIT and a call through it costs what a direct call costs. A
 * member that is missing (renamed, or its signature changed) throws {@link
 * ExceptionInInitializerError}, so the hook class fails to initialise at its first use. Each call
 * costs a reflective lookup.
 */
public final class Lookups {

  private Lookups() {}

  /**
   * Resolves an instance method of {@code owner}.
   *
   * @param owner the class declaring the method
   * @param name the method's name
   * @param returns its return type
   * @param params its parameter types
   * @return the method handle; the receiver is its first parameter
   * @throws ExceptionInInitializerError if there is no such method
   */
  public static MethodHandle virtual(
      final Class<?> owner, final String name, final Class<?> returns, final Class<?>... params) {
    try {
      return in(owner).findVirtual(owner, name, MethodType.methodType(returns, params));
    } catch (final ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * Resolves a static method of {@code owner}.
   *
   * @param owner the class declaring the method
   * @param name the method's name
   * @param returns its return type
   * @param params its parameter types
   * @return the method handle
   * @throws ExceptionInInitializerError if there is no such method
   */
  public static MethodHandle staticMethod(
      final Class<?> owner, final String name, final Class<?> returns, final Class<?>... params) {
    try {
      return in(owner).findStatic(owner, name, MethodType.methodType(returns, params));
    } catch (final ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * Resolves the getter of an instance field of {@code owner}.
   *
   * @param owner the class declaring the field
   * @param name the field's name
   * @param type its type
   * @return the getter; the receiver is its parameter
   * @throws ExceptionInInitializerError if there is no such field
   */
  public static MethodHandle getter(final Class<?> owner, final String name, final Class<?> type) {
    try {
      return in(owner).findGetter(owner, name, type);
    } catch (final ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * Reads a static {@code int} field of {@code owner} (a constant the hook classes republish).
   *
   * @param owner the class declaring the field
   * @param name the field's name
   * @return its value
   * @throws ExceptionInInitializerError if there is no such field
   */
  public static int staticInt(final Class<?> owner, final String name) {
    try {
      return (int) in(owner).findStaticGetter(owner, name, int.class).invokeExact();
    } catch (final Throwable thrown) {
      throw new ExceptionInInitializerError(thrown);
    }
  }

  private static MethodHandles.Lookup in(final Class<?> owner) {
    try {
      return MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
    } catch (final IllegalAccessException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
