package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ComponentTypeTest {

  static final class WithFields {
    int x;
  }

  static final class NoFields {
    static int counter;
  }

  static final class Defined {
    int x;
  }

  static final class Twice {
    int x;
  }

  static final class Outer {
    static final class Inner {}
  }

  /** Has a traits class, {@link ComponentTypeTest_Generated_Traits}, as if it were processed. */
  static final class Generated {
    int x;
  }

  static class Base {
    int inherited;
  }

  static final class Derived extends Base {}

  /** An inner class: its only field is the reference to the outer instance, a synthetic one. */
  final class InnerWithoutFields {}

  static final class Tagged {}

  static final class Stored {
    int x;
  }

  private static final java.util.concurrent.atomic.AtomicInteger NAMES =
      new java.util.concurrent.atomic.AtomicInteger();

  @Test
  void ofPicksObjectStorageForStatefulClassesAndTagStorageForStatelessOnes() {
    final ComponentType<WithFields, ?> stateful = ComponentType.of(WithFields.class);
    assertInstanceOf(ObjectStorage.class, stateful.createStorage());
    assertEquals(ComponentTraits.DEFAULT, stateful.traits());
    final ComponentType<NoFields, ?> stateless = ComponentType.of(NoFields.class);
    assertInstanceOf(EmptyStorage.class, stateless.createStorage());
    assertTrue(stateless.traits().empty());
    assertSame(stateful, ComponentType.of(WithFields.class));
  }

  @Test
  void idsAreDenseAndUnique() {
    final ComponentType<WithFields, ?> a = ComponentType.of(WithFields.class);
    final ComponentType<NoFields, ?> b = ComponentType.of(NoFields.class);
    assertNotEquals(a.id(), b.id());
    assertTrue(a.id() >= 0 && b.id() >= 0);
  }

  @Test
  void aClassHasOneDefinitionPerJvm() {
    final ComponentTraits inPlace = ComponentTraits.DEFAULT.withPolicy(DeletionPolicy.IN_PLACE);
    final ComponentType<Twice, ObjectStorage<Twice>> first =
        ComponentType.object(Twice.class, inPlace);
    assertSame(first, ComponentType.object(Twice.class, inPlace));
    final IllegalStateException error =
        assertThrows(IllegalStateException.class, () -> ComponentType.object(Twice.class));
    assertTrue(error.getMessage().contains(Twice.class.getName()), error.getMessage());
    assertThrows(IllegalStateException.class, () -> ComponentType.tag(Twice.class));
    assertSame(first, ComponentType.of(Twice.class));
  }

  @Test
  void defineRefusesASecondDefinition() {
    final ComponentType<Defined, ObjectStorage<Defined>> defined =
        ComponentType.define(Defined.class, ComponentTraits.DEFAULT, ObjectStorage::new);
    assertThrows(
        IllegalStateException.class,
        () -> ComponentType.define(Defined.class, ComponentTraits.DEFAULT, ObjectStorage::new));
    assertSame(defined, ComponentType.of(Defined.class));
    assertThrows(
        NullPointerException.class,
        () -> ComponentType.define(null, ComponentTraits.DEFAULT, ObjectStorage::new));
  }

  @Test
  void objectTraitsMustNotBeEmpty() {
    assertThrows(
        IllegalArgumentException.class,
        () -> ComponentType.object(Outer.class, ComponentTraits.TAG));
  }

  @Test
  void namedTypesAreOnePerNameAndNeedANonBlankName() {
    final ComponentType<Void, VoidStorage> a = ComponentType.named("component-type-test");
    assertSame(a, ComponentType.named("component-type-test"));
    assertEquals("component-type-test", a.name());
    assertThrows(IllegalArgumentException.class, () -> ComponentType.named(" "));
    assertThrows(IllegalArgumentException.class, () -> ComponentType.named(null));
  }

  /**
   * A new name interns one named type and a name already known interns none: the count tests use to
   * check that loading a stream interns no name it carries.
   */
  @Test
  void eachNewNameInternsOneNamedType() {
    final int before = ComponentType.namedCount();
    final ComponentType<Void, VoidStorage> fresh = ComponentType.named("interned-once " + before);
    assertEquals(before + 1, ComponentType.namedCount());
    assertSame(fresh, ComponentType.named("interned-once " + before));
    assertThrows(IllegalArgumentException.class, () -> ComponentType.named(""));
    assertEquals(before + 1, ComponentType.namedCount());
  }

  @Test
  void theTraitsClassNameFlattensTheNesting() {
    assertEquals(
        "dev.phalanx.ecs.ComponentTypeTest_Outer_Inner_Traits",
        ComponentType.traitsClassName(Outer.Inner.class));
    assertEquals("java.lang.String_Traits", ComponentType.traitsClassName(String.class));
  }

  @Test
  void eachCallToCreateStorageMakesAFreshStorage() {
    final ComponentType<WithFields, ?> type = ComponentType.of(WithFields.class);
    assertNotEquals(type.createStorage(), type.createStorage());
    assertSame(type, type.createStorage().type());
    assertTrue(type.toString().contains("WithFields"));
  }

  @Test
  void ofDefinesANewClassByWhetherItOrItsSuperclassesHaveInstanceFields() {
    // Fresh copies: the JVM-wide registry has never seen them, whatever ran before in this JVM.
    final Class<?> stateful = FreshClasses.load(WithFields.class);
    final ComponentType<?, ?> statefulType = ComponentType.of(stateful);
    assertSame(stateful, statefulType.javaClass());
    assertInstanceOf(ObjectStorage.class, statefulType.createStorage());
    assertEquals(ComponentTraits.DEFAULT, statefulType.traits());
    assertSame(statefulType, ComponentType.of(stateful));

    final Class<?> staticOnly = FreshClasses.load(NoFields.class);
    assertInstanceOf(EmptyStorage.class, ComponentType.of(staticOnly).createStorage());
    assertEquals(ComponentTraits.TAG, ComponentType.of(staticOnly).traits());

    final Class<?> derived = FreshClasses.load(Derived.class, Base.class);
    assertInstanceOf(ObjectStorage.class, ComponentType.of(derived).createStorage());

    final Class<?> inner = FreshClasses.load(InnerWithoutFields.class);
    assertInstanceOf(EmptyStorage.class, ComponentType.of(inner).createStorage());
  }

  @Test
  void ofUsesTheGeneratedTraitsClassOfAProcessedClass() {
    final Class<?> generated =
        FreshClasses.load(Generated.class, ComponentTypeTest_Generated_Traits.class);
    final ComponentType<?, ?> type = ComponentType.of(generated);
    assertSame(generated, type.javaClass());
    assertEquals(new ComponentTraits(64, DeletionPolicy.IN_PLACE, false), type.traits());
    assertSame(type, ComponentType.of(generated));
    // A generated definition is the only one: even the same traits may not define it again.
    final IllegalStateException error =
        assertThrows(
            IllegalStateException.class, () -> ComponentType.object(generated, type.traits()));
    assertTrue(error.getMessage().contains("is already defined as " + type), error.getMessage());
  }

  @Test
  void theDefiningMethodsReturnTheTypeTheyDefine() {
    final Class<?> stored = FreshClasses.load(Stored.class);
    final ComponentType<?, ?> object = ComponentType.object(stored);
    assertSame(stored, object.javaClass());
    assertEquals("Stored", object.name());
    assertSame(object, ComponentType.of(stored));

    final Class<?> tagged = FreshClasses.load(Tagged.class);
    final ComponentType<?, ?> tag = ComponentType.tag(tagged);
    assertSame(tagged, tag.javaClass());
    assertSame(tag, ComponentType.of(tagged));
    assertEquals(ComponentTraits.TAG, tag.traits());

    final Class<Object> copy = castClass(FreshClasses.load(Tagged.class));
    final ComponentType<Object, EmptyStorage<Object>> withInstance = ComponentType.tag(copy, "on");
    final Registry registry = new Registry();
    final long entity = registry.create();
    final EmptyStorage<Object> storage = registry.storage(withInstance);
    storage.emplace(entity);
    assertEquals("on", storage.get(entity));

    final String name = "component-type-test-" + NAMES.incrementAndGet();
    final ComponentType<Void, VoidStorage> named = ComponentType.named(name);
    assertEquals(name, named.name());
    assertSame(Void.class, named.javaClass());
    assertSame(named, ComponentType.named(name));
  }

  @SuppressWarnings("unchecked") // a test-only view of a fresh class as another type parameter
  private static <T> Class<T> castClass(final Class<?> javaClass) {
    return (Class<T>) javaClass;
  }
}
