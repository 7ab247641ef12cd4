package dev.phalanx.ecs.schedule;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * One system being declared on a {@link ScheduleBuilder}: its stage, its access, its order
 * constraints and its run condition. Every method returns this declaration, so a system reads as
 * one chained statement; the declaration is read when the schedule is {@linkplain
 * ScheduleBuilder#build() built}, and changing it afterwards has no effect.
 */
public final class SystemDeclaration {

  final String name;
  final SystemBody body;
  final int index;
  String stage;
  final Access.Builder access = Access.builder();
  final List<String> after = new ArrayList<>();
  final List<String> before = new ArrayList<>();
  final List<String> ambiguousWith = new ArrayList<>();
  final List<RunCondition> conditions = new ArrayList<>();
  final List<String> sets = new ArrayList<>();
  boolean alwaysRun;
  // The constraints with sets expanded into their members, set's constraints and chains included:
  // worked out by each build().
  final List<String> orderedAfter = new ArrayList<>();
  final List<String> orderedBefore = new ArrayList<>();
  final List<String> allowedWith = new ArrayList<>();

  SystemDeclaration(final String name, final SystemBody body, final int index, final String stage) {
    this.name = name;
    this.body = body;
    this.index = index;
    this.stage = stage;
  }

  /**
   * Puts the system in stage {@code stage} (by default {@link Schedule#UPDATE}).
   *
   * @param stage the name of a stage of the builder
   * @return this declaration
   */
  public SystemDeclaration in(final String stage) {
    this.stage = Objects.requireNonNull(stage, "stage");
    return this;
  }

  /**
   * Declares what {@code source} (a generated query) touches as part of this system's access.
   *
   * @param source a query, or anything that declares its access
   * @return this declaration
   */
  public SystemDeclaration uses(final AccessSource source) {
    access.uses(source);
    return this;
  }

  /**
   * Declares that the system reads the values of {@code type}.
   *
   * @param type a component type
   * @return this declaration
   */
  public SystemDeclaration reads(final ComponentType<?, ?> type) {
    access.reads(type);
    return this;
  }

  /**
   * Declares that the system reads the values of {@code storage}'s type.
   *
   * @param storage a storage
   * @return this declaration
   */
  public SystemDeclaration reads(final Storage<?> storage) {
    access.reads(storage);
    return this;
  }

  /**
   * Declares that the system writes the values of {@code type}.
   *
   * @param type a component type
   * @return this declaration
   */
  public SystemDeclaration writes(final ComponentType<?, ?> type) {
    access.writes(type);
    return this;
  }

  /**
   * Declares that the system writes the values of {@code storage}'s type.
   *
   * @param storage a storage
   * @return this declaration
   */
  public SystemDeclaration writes(final Storage<?> storage) {
    access.writes(storage);
    return this;
  }

  /**
   * Declares that the system loops over the storage of {@code type}.
   *
   * @param type a component type
   * @return this declaration
   */
  public SystemDeclaration iterates(final ComponentType<?, ?> type) {
    access.iterates(type);
    return this;
  }

  /**
   * Declares that the system emplaces, removes, sorts or clears elements of {@code type} directly.
   *
   * @param type a component type
   * @return this declaration
   */
  public SystemDeclaration changesStructure(final ComponentType<?, ?> type) {
    access.changesStructure(type);
    return this;
  }

  /**
   * Declares that the system reads resource {@code key} of the registry's context.
   *
   * @param key the resource's class
   * @return this declaration
   */
  public SystemDeclaration readsResource(final Class<?> key) {
    access.readsResource(key);
    return this;
  }

  /**
   * Declares that the system writes resource {@code key} of the registry's context.
   *
   * @param key the resource's class
   * @return this declaration
   */
  public SystemDeclaration writesResource(final Class<?> key) {
    access.writesResource(key);
    return this;
  }

  /**
   * Declares that the system creates entities directly.
   *
   * @return this declaration
   */
  public SystemDeclaration createsEntities() {
    access.createsEntities();
    return this;
  }

  /**
   * Declares that the system needs the world alone (it may do anything, destroy entities included).
   *
   * @return this declaration
   */
  public SystemDeclaration exclusive() {
    access.exclusive();
    return this;
  }

  /**
   * Puts the system in the named {@linkplain ScheduleBuilder#set sets}: their order constraints and
   * run conditions hold for it as well.
   *
   * @param names names of sets declared on the builder
   * @return this declaration
   */
  public SystemDeclaration inSet(final String... names) {
    for (final String set : names) {
      sets.add(Objects.requireNonNull(set, "set"));
    }
    return this;
  }

  /**
   * Runs the system after {@code systems} of the same stage (a system of an earlier stage is after
   * already; one of a later stage is an error). A set's name stands for every member.
   *
   * @param systems names of declared systems or sets
   * @return this declaration
   */
  public SystemDeclaration after(final String... systems) {
    for (final String system : systems) {
      after.add(Objects.requireNonNull(system, "system"));
    }
    return this;
  }

  /**
   * Runs the system before {@code systems} of the same stage. A set's name stands for every member.
   *
   * @param systems names of declared systems or sets
   * @return this declaration
   */
  public SystemDeclaration before(final String... systems) {
    for (final String system : systems) {
      before.add(Objects.requireNonNull(system, "system"));
    }
    return this;
  }

  /**
   * Allows this system and {@code systems} to conflict without an order between them: the schedule
   * then runs them one after the other in declaration order, instead of refusing to build. A set's
   * name stands for every member.
   *
   * @param systems names of declared systems or sets
   * @return this declaration
   */
  public SystemDeclaration ambiguousWith(final String... systems) {
    for (final String system : systems) {
      ambiguousWith.add(Objects.requireNonNull(system, "system"));
    }
    return this;
  }

  /**
   * Runs the system only in frames (or steps) where {@code condition} holds. Several conditions
   * (this and {@link #runIf(RunCondition)}) hold only together: the system runs when every one
   * holds, and they are asked in the order added until one does not. A condition is evaluated on
   * the thread that runs the schedule, before the system's wave starts: it sees the world as the
   * systems before that wave left it. It may throw, as a system may.
   *
   * @param condition the run condition
   * @return this declaration
   */
  public SystemDeclaration runIf(final BooleanSupplier condition) {
    conditions.add(RunCondition.of(condition));
    return this;
  }

  /**
   * Runs the system only in frames (or steps) where {@code condition} holds; a condition that sees
   * the system's context, so it can read resources and ask what changed since the system last ran
   * (see {@link RunCondition}). Added to the system's other conditions, as {@link
   * #runIf(BooleanSupplier)} is: every one must hold.
   *
   * @param condition the run condition
   * @return this declaration
   */
  public SystemDeclaration runIf(final RunCondition condition) {
    conditions.add(Objects.requireNonNull(condition, "condition"));
    return this;
  }

  /**
   * Marks the system to run while the schedule is {@linkplain Schedule#pause() paused}: in every
   * {@link Schedule#run()} call, stepped or not (input, rendering, a debug overlay), unless it is
   * {@linkplain Schedule#disable disabled}. The same as {@link Schedule#alwaysRun(String, boolean)
   * alwaysRun(name, true)} on the built schedule.
   *
   * @return this declaration
   */
  public SystemDeclaration alwaysRun() {
    alwaysRun = true;
    return this;
  }

  /**
   * {@return the conditions, then {@code more} (its sets'), all of which must hold, as one; {@code
   * null} if there are none}
   */
  RunCondition condition(final List<RunCondition> more) {
    final List<RunCondition> every = new ArrayList<>(conditions);
    every.addAll(more);
    if (every.isEmpty()) {
      return null;
    }
    if (1 == every.size()) {
      return every.get(0);
    }
    final RunCondition[] all = every.toArray(new RunCondition[0]);
    return context -> {
      for (final RunCondition each : all) {
        if (!each.holds(context)) {
          return false;
        }
      }
      return true;
    };
  }
}
