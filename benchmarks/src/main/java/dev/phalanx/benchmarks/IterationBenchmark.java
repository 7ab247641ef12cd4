package dev.phalanx.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Settings shared by the average-time loop workloads (iteration, groups, random access, tracking,
 * schedules, the loop-copies decision): time in ns, one operation per entity of the default world,
 * short warm-up and measurement iterations, one fork. JMH takes each setting from the nearest class
 * that declares it, so a workload with another entity count or other iterations declares only what
 * differs.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public abstract class IterationBenchmark {}
