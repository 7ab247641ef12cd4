package dev.phalanx.ecs.schedule;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * A named set of systems, declared with {@link ScheduleBuilder#set} (Bevy's {@code SystemSet} and
 * {@code configure_sets}): systems join it with {@link SystemDeclaration#inSet}, and what is said
 * of the set holds for each member. {@link #after} and {@link #before} order every member against
 * systems or the members of other sets (a system's {@code after} and {@code before} may name a set
 * too); {@link #runIf} adds a condition every member must meet, asked for each member with that
 * member's context, after the member's own; {@link #chain} runs the members one after another in
 * the order they were declared. A set spans stages as its members do; an order between members of
 * different stages must agree with the stages' order, as between systems. Systems and sets share
 * one namespace. Read when the schedule is {@linkplain ScheduleBuilder#build() built}.
 */
public final class SystemSet {

  final String name;
  final List<String> after = new ArrayList<>();
  final List<String> before = new ArrayList<>();
  final List<RunCondition> conditions = new ArrayList<>();
  boolean chained;

  SystemSet(final String name) {
    this.name = name;
  }

  /** {@return the set's name} */
  public String name() {
    return name;
  }

  /**
   * Runs every member after {@code names}: systems, or every member of sets.
   *
   * @param names names of declared systems or sets
   * @return this set
   */
  public SystemSet after(final String... names) {
    for (final String other : names) {
      after.add(Objects.requireNonNull(other, "name"));
    }
    return this;
  }

  /**
   * Runs every member before {@code names}: systems, or every member of sets.
   *
   * @param names names of declared systems or sets
   * @return this set
   */
  public SystemSet before(final String... names) {
    for (final String other : names) {
      before.add(Objects.requireNonNull(other, "name"));
    }
    return this;
  }

  /**
   * Adds a condition that every member must meet as well as its own (see {@link
   * SystemDeclaration#runIf(RunCondition)}); it is asked for each member, with that member's
   * context.
   *
   * @param condition the condition
   * @return this set
   */
  public SystemSet runIf(final RunCondition condition) {
    conditions.add(Objects.requireNonNull(condition, "condition"));
    return this;
  }

  /**
   * As {@link #runIf(RunCondition)}, for a condition that needs no context.
   *
   * @param condition the condition
   * @return this set
   */
  public SystemSet runIf(final BooleanSupplier condition) {
    conditions.add(RunCondition.of(condition));
    return this;
  }

  /**
   * Runs the members one after another, in the order they were declared (Bevy's {@code chain()}).
   *
   * @return this set
   */
  public SystemSet chain() {
    chained = true;
    return this;
  }

  @Override
  public String toString() {
    return "SystemSet[" + name + "]";
  }
}
