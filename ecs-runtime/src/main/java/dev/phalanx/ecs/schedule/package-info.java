/**
 * Systems and a schedule: the frame loop, with access known before the first frame, parallel and
 * deterministic by construction.
 *
 * <p>A system is ordinary Java code (a {@link dev.phalanx.ecs.schedule.SystemBody}) with an {@link
 * dev.phalanx.ecs.schedule.Access}: what it reads, writes, iterates and changes the structure of.
 * Generated queries declare their own access ({@link dev.phalanx.ecs.schedule.AccessSource};
 * components listed in a query's {@code readOnly} are read, the others written), so a system states
 * its access by naming the queries it uses. A {@link dev.phalanx.ecs.schedule.ScheduleBuilder}
 * takes stages (three by default, fixed-timestep ones on demand), systems, named sets of systems,
 * order constraints, chains and run conditions; {@code build()} refuses cycles, unordered conflicts
 * and unknown names, naming them all at once, before the first frame. A {@link
 * dev.phalanx.ecs.schedule.Schedule} then runs frames: per stage, waves of systems with no conflict
 * between them (at once, on a {@link java.util.concurrent.ForkJoinPool}, if one is given), then a
 * sync point that applies each system's command buffer in a fixed order. The world after a frame
 * does not depend on the number of threads. For debugging, a schedule can disable systems, pause,
 * and step one frame or one system at a time (see the Stepping section of {@link
 * dev.phalanx.ecs.schedule.Schedule}).
 *
 * <h2>Costs</h2>
 *
 * <p>Planning is done once, in {@code build()}: O(s²) per stage of s systems. A frame costs, per
 * system, two clock reads and a store, plus a hand-off to the pool for each system that runs beside
 * another; nothing is allocated in steady state. Each system's {@link
 * dev.phalanx.ecs.schedule.SystemTiming} (count, mean, p50, p95, max over a window) is read through
 * the schedule.
 *
 * <h2>Files</h2>
 *
 * <ul>
 *   <li>{@code Access}, {@code AccessSource}: what a system touches, and what conflicts.
 *   <li>{@code SystemBody}, {@code SystemContext}, {@code SystemDeclaration}: a system, its view of
 *       the frame, its declaration; {@code SystemSet}: a named set of systems; {@code
 *       RunCondition}: whether a system runs in a frame.
 *   <li>{@code ScheduleBuilder}: declaring and checking; {@code Schedule}: planning's result and
 *       the executor; {@code SystemTiming}, {@code SystemFailedException}: what a frame reports.
 *   <li>{@code ScheduleState}: the frame counter, fixed-step time and the resources declared saved,
 *       saved with a snapshot of the world and restored with it.
 * </ul>
 */
package dev.phalanx.ecs.schedule;
