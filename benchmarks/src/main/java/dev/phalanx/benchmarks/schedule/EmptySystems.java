package dev.phalanx.benchmarks.schedule;

import com.artemis.BaseSystem;
import dev.phalanx.ecs.schedule.SystemBody;

/**
 * Sixteen empty systems, each its own class, for {@link ScheduleOverhead}: as Phalanx bodies (one
 * lambda each, so the schedule's call site sees sixteen receivers, as a real frame loop does) and
 * as artemis-odb systems (artemis keeps one system per class).
 */
final class EmptySystems {

  private EmptySystems() {}

  /** {@return sixteen empty Phalanx system bodies, each a class of its own} */
  static SystemBody[] bodies() {
    return new SystemBody[] {
      context -> {},
      context -> {},
      context -> {},
      context -> {},
      context -> {},
      context -> {},
      context -> {},
      context -> {},
      context -> {},
      context -> {},
      context -> {},
      context -> {},
      context -> {},
      context -> {},
      context -> {},
      context -> {}
    };
  }

  /** {@return sixteen empty artemis-odb systems, each a class of its own} */
  static BaseSystem[] artemis() {
    return new BaseSystem[] {
      new E0(), new E1(), new E2(), new E3(), new E4(), new E5(), new E6(), new E7(), new E8(),
      new E9(), new E10(), new E11(), new E12(), new E13(), new E14(), new E15()
    };
  }

  /** An empty artemis-odb system; E1 to E15 are its copies, each a class of its own. */
  static class E0 extends BaseSystem {
    @Override
    protected void processSystem() {}
  }

  static final class E1 extends E0 {}

  static final class E2 extends E0 {}

  static final class E3 extends E0 {}

  static final class E4 extends E0 {}

  static final class E5 extends E0 {}

  static final class E6 extends E0 {}

  static final class E7 extends E0 {}

  static final class E8 extends E0 {}

  static final class E9 extends E0 {}

  static final class E10 extends E0 {}

  static final class E11 extends E0 {}

  static final class E12 extends E0 {}

  static final class E13 extends E0 {}

  static final class E14 extends E0 {}

  static final class E15 extends E0 {}
}
