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
}
