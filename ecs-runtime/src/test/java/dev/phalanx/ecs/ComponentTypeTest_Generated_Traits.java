package dev.phalanx.ecs;

/**
 * Stands for the traits class the processor generates for {@link ComponentTypeTest.Generated}: its
 * name follows the processor's rule, and initializing it defines the type.
 */
final class ComponentTypeTest_Generated_Traits {

  static final ComponentTraits TRAITS = new ComponentTraits(64, DeletionPolicy.IN_PLACE, false);

  static final ComponentType<
          ComponentTypeTest.Generated, ObjectStorage<ComponentTypeTest.Generated>>
      TYPE = ComponentType.define(ComponentTypeTest.Generated.class, TRAITS, ObjectStorage::new);

  private ComponentTypeTest_Generated_Traits() {}
}
