package dev.phalanx.examples.relations;

import dev.phalanx.ecs.annotations.Component;

/**
 * A task depending on others: a task others depend on cannot be destroyed, and no task depends on
 * itself, even through others (REFUSE, acyclic).
 */
@Component
public final class DependsOn {}
