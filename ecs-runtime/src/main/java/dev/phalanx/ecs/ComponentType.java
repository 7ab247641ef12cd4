package dev.phalanx.ecs;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The key of a component type: a dense integer id the registry uses to find the type's storage with
 * one array read, plus the type's traits and the factory of its storage.
 *
 * <h2>Where keys come from</h2>
 *
 * <ul>
 *   <li>For an {@code @Component} class the processor generates {@code Foo_Traits.TYPE}, typed with
 *       the generated storage: {@code registry.storage(Position_Traits.TYPE)} returns a {@code
 *       Position_Storage}.
 *   <li>Any other class gets a key from {@link #of(Class)} (object storage, or tag storage for a
 *       class without instance fields) or from {@link #object}, {@link #tag} and {@link #define}
 *       with explicit traits.
 *   <li>Named typeless (void) types come from {@link #named(String)}.
 * </ul>
 *
 * <p>There is one key per class and one per name, for the whole JVM: defining a class twice with
 * different storage or traits is refused.
 *
 * <h2>Costs</h2>
 *
 * <p>Looking a key up by class ({@link #of}) is a concurrent hash lookup and, the first time, may
 * load the generated traits class through reflection: do it once and keep the key in a {@code
 * static final} field. Using a key costs one array read in the registry.
 *
 * @param <T> the component class ({@link Void} for named types)
 * @param <S> the storage class
 */
public final class ComponentType<T, S extends Storage<T>> {

  private static final AtomicInteger NEXT_ID = new AtomicInteger();
  private static final ConcurrentHashMap<Class<?>, ComponentType<?, ?>> BY_CLASS =
      new ConcurrentHashMap<>();
  private static final ConcurrentHashMap<String, ComponentType<Void, VoidStorage>> BY_NAME =
      new ConcurrentHashMap<>();

  /** How the storage of a type keeps its payload; two definitions of a class must agree on it. */
  private enum Kind {
    OBJECT,
    TAG,
    GENERATED,
    VOID
  }

  private final int id;
  private final Class<T> javaClass;
  private final String name;
  private final ComponentTraits traits;
  private final StorageFactory<T, S> factory;
  private final Kind kind;

  private ComponentType(
      final Class<T> javaClass,
      final String name,
      final ComponentTraits traits,
      final StorageFactory<T, S> factory,
      final Kind kind) {
    this.id = NEXT_ID.getAndIncrement();
    this.javaClass = javaClass;
    this.name = name;
    this.traits = traits;
    this.factory = factory;
    this.kind = kind;
  }

  /**
   * Defines the type of {@code javaClass} with a storage of the caller's making. Generated {@code
   * Foo_Traits} classes call it once, in their static initializer.
   *
   * @param <T> the component type
   * @param <S> the storage class
   * @param javaClass the component class
   * @param traits how the storage pages, deletes and stores the component
   * @param factory creates the type's storages
   * @return the new type
   * @throws IllegalStateException if the class is already defined
   */
  public static <T, S extends Storage<T>> ComponentType<T, S> define(
      final Class<T> javaClass, final ComponentTraits traits, final StorageFactory<T, S> factory) {
    return register(
        new ComponentType<>(
            Objects.requireNonNull(javaClass, "javaClass"),
            javaClass.getSimpleName(),
            Objects.requireNonNull(traits, "traits"),
            Objects.requireNonNull(factory, "factory"),
            Kind.GENERATED));
  }

  /**
   * {@return the type of {@code javaClass} stored as objects with {@code traits}, defining it on
   * first call}
   *
   * @param <T> the component type
   * @param javaClass the component class
   * @param traits how the storage pages and deletes the component
   * @throws IllegalStateException if the class is already defined otherwise
   */
  public static <T> ComponentType<T, ObjectStorage<T>> object(
      final Class<T> javaClass, final ComponentTraits traits) {
    if (traits.empty()) {
      throw new IllegalArgumentException("object storage traits must not be empty: use tag()");
    }
    return register(
        new ComponentType<T, ObjectStorage<T>>(
            javaClass, javaClass.getSimpleName(), traits, ObjectStorage::new, Kind.OBJECT));
  }

  /**
   * {@return the type of {@code javaClass} stored as objects with default traits}
   *
   * @param <T> the component type
   * @param javaClass the component class
   */
  public static <T> ComponentType<T, ObjectStorage<T>> object(final Class<T> javaClass) {
    return object(javaClass, ComponentTraits.DEFAULT);
  }

  /**
   * {@return the tag type of {@code javaClass}: no payload is stored; {@code get} returns {@code
   * instance}}
   *
   * @param <T> the component type
   * @param javaClass the component class
   * @param instance the instance that every {@code get} returns
   * @throws IllegalStateException if the class is already defined otherwise
   */
  public static <T> ComponentType<T, EmptyStorage<T>> tag(
      final Class<T> javaClass, final T instance) {
    return register(
        new ComponentType<T, EmptyStorage<T>>(
            javaClass,
            javaClass.getSimpleName(),
            ComponentTraits.TAG,
            type -> new EmptyStorage<>(type, instance),
            Kind.TAG));
  }

  /**
   * {@return the tag type of {@code javaClass}, whose storage's {@code get} returns {@code null}}
   *
   * @param <T> the component type
   * @param javaClass the component class
   */
  public static <T> ComponentType<T, EmptyStorage<T>> tag(final Class<T> javaClass) {
    return tag(javaClass, null);
  }

  /**
   * {@return the named typeless type {@code name} (EnTT's {@code storage<void>}), one per name}
   *
   * @param name the type's name, which is also its name in messages
   * @throws IllegalArgumentException if the name is blank
   */
  public static ComponentType<Void, VoidStorage> named(final String name) {
    if (null == name || name.isBlank()) {
      throw new IllegalArgumentException(
          "a void storage needs a non-blank name, got '" + name + "'");
    }
    return BY_NAME.computeIfAbsent(
        name,
        key ->
            new ComponentType<Void, VoidStorage>(
                Void.class, key, ComponentTraits.TAG, VoidStorage::new, Kind.VOID));
  }

  /**
   * {@return how many named (void) types the JVM holds} For tests: snapshot loading interns none
   * from the names a stream carries.
   */
  static int namedCount() {
    return BY_NAME.size();
  }

  /**
   * {@return the type of {@code javaClass}: its generated {@code _Traits.TYPE} when the class is an
   * {@code @Component}, else an existing definition, else a new default one (tag storage if the
   * class has no instance fields, object storage otherwise)}
   *
   * @param <T> the component type
   * @param javaClass the component class
   */
  public static <T> ComponentType<T, ?> of(final Class<T> javaClass) {
    ComponentType<?, ?> found = BY_CLASS.get(javaClass);
    if (null == found) {
      loadGenerated(javaClass);
      found = BY_CLASS.get(javaClass);
    }
    if (null == found) {
      found = hasInstanceFields(javaClass) ? object(javaClass) : tag(javaClass);
    }
    return cast(found, javaClass);
  }

  /** {@return the dense id, unique in the JVM; the registry's array index for this type} */
  public int id() {
    return id;
  }

  /** {@return the component class ({@link Void} for named types)} */
  public Class<T> javaClass() {
    return javaClass;
  }

  /** {@return the name used in messages: the class's simple name, or the void type's name} */
  public String name() {
    return name;
  }

  /** {@return the storage traits} */
  public ComponentTraits traits() {
    return traits;
  }

  /**
   * Creates a new, empty storage for this type.
   *
   * @return a new storage, made by the type's factory
   */
  public S createStorage() {
    return factory.create(this);
  }

  @Override
  public String toString() {
    return "ComponentType(" + name + ", id=" + id + ", " + traits + ")";
  }

  private static <T, S extends Storage<T>> ComponentType<T, S> register(
      final ComponentType<T, S> type) {
    final ComponentType<?, ?> existing = BY_CLASS.putIfAbsent(type.javaClass, type);
    if (null == existing) {
      return type;
    }
    if (existing.kind == type.kind
        && existing.kind != Kind.GENERATED
        && existing.traits.equals(type.traits)) {
      @SuppressWarnings("unchecked") // same class, same kind: same storage class
      final ComponentType<T, S> same = (ComponentType<T, S>) existing;
      return same;
    }
    throw new IllegalStateException(
        "component type "
            + type.javaClass.getName()
            + " is already defined as "
            + existing
            + "; each class has one storage definition per JVM");
  }

  private static void loadGenerated(final Class<?> javaClass) {
    final String traitsName = traitsClassName(javaClass);
    try {
      // Initializing Foo_Traits runs ComponentType.define(Foo.class, ...), which registers it.
      Class.forName(traitsName, true, javaClass.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      // Not an @Component class processed by Phalanx: fall back to a runtime definition.
    }
  }

  /**
   * Returns the binary name of the traits class the processor generates for {@code javaClass}: the
   * package, then the nesting chain joined with underscores, then {@code _Traits}.
   */
  static String traitsClassName(final Class<?> javaClass) {
    final StringBuilder flat = new StringBuilder(javaClass.getSimpleName());
    for (Class<?> outer = javaClass.getEnclosingClass();
        null != outer;
        outer = outer.getEnclosingClass()) {
      flat.insert(0, outer.getSimpleName() + "_");
    }
    final String packageName = javaClass.getPackageName();
    return (packageName.isEmpty() ? "" : packageName + ".") + flat + "_Traits";
  }

  private static boolean hasInstanceFields(final Class<?> javaClass) {
    for (Class<?> c = javaClass; null != c && Object.class != c; c = c.getSuperclass()) {
      for (final Field field : c.getDeclaredFields()) {
        if (!Modifier.isStatic(field.getModifiers()) && !field.isSynthetic()) {
          return true;
        }
      }
    }
    return false;
  }

  @SuppressWarnings("unchecked") // BY_CLASS maps a class only to types of that class
  private static <T> ComponentType<T, ?> cast(
      final ComponentType<?, ?> type, final Class<T> javaClass) {
    assert type.javaClass == javaClass;
    return (ComponentType<T, ?>) type;
  }
}
