/**
 * Phalanx's runtime. The core, {@code dev.phalanx.ecs} (entities, sparse sets, storages, the
 * registry, signals, views and groups), is one package whose files share package-private hooks on
 * purpose, as EnTT's {@code entity/} directory does. Each feature is a package of its own and a
 * client of the core's public API: {@code dev.phalanx.ecs.command} (deferred commands), {@code
 * dev.phalanx.ecs.event} (user-defined events and their observers), {@code dev.phalanx.ecs.clone}
 * (cloning and prefabs), {@code dev.phalanx.ecs.hierarchy} (parent and child links), {@code
 * dev.phalanx.ecs.snapshot} (saving, loading and streaming worlds) and {@code
 * dev.phalanx.ecs.schedule} (systems). No feature reaches a member the core hides: what a feature
 * needs and a user must not touch stays inside the core, behind its public contract. {@code
 * dev.phalanx.ecs.internal} is exported for generated code only: it carries no compatibility
 * promise. The core depends on no feature. No dependency outside the JDK.
 */
module dev.phalanx.ecs {
  exports dev.phalanx.ecs;
  exports dev.phalanx.ecs.clone;
  exports dev.phalanx.ecs.command;
  exports dev.phalanx.ecs.event;
  exports dev.phalanx.ecs.hierarchy;
  exports dev.phalanx.ecs.relation;
  exports dev.phalanx.ecs.schedule;
  exports dev.phalanx.ecs.snapshot;
  exports dev.phalanx.ecs.internal;
}
