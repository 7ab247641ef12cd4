package dev.phalanx.benchmarks.structural;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Settings shared by the structural workloads: each shot changes every entity of a world once, so
 * they run as single shots (as EnTT's suite does), with the world rebuilt or restored before each
 * shot, outside the measured time. Each class sets {@code @OperationsPerInvocation} so the score is
 * per entity. The heap is fixed and pre-touched ({@code -XX:+AlwaysPreTouch}): a shot that
 * allocates into young regions the JVM has not touched yet pays the operating system's mapping of
 * each page, up to ten times the shot's own time (see the benchmarks README).
 *
 * <p>Allocation: JMH's gc profiler counts a whole iteration, the per-shot set-up included. The
 * states restore their worlds by reusing objects where the library allows it, so that the figure is
 * the shot's own; rows where the set-up must allocate say so.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public abstract class StructuralBenchmark {}
