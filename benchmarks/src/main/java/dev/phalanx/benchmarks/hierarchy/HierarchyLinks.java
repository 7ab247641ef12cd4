package dev.phalanx.benchmarks.hierarchy;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The costs of the hierarchy's depth representation: 256 chains of {@code depth} nodes. {@code
 * depthOfLeaf} reads the depth of a chain's deepest node; {@code reparentMiddle} moves a chain's
 * middle node (with the half chain below it) between two parents and back; {@code detachAttachLeaf}
 * detaches a chain's leaf and attaches it again; {@code destroyAndRebuildRoot} destroys a chain's
 * root (its child, with the chain below, becomes a root) and attaches that child to a new root. Not
 * part of {@code run.sh}'s tables: run by hand, {@code java -jar benchmarks.jar HierarchyLinks}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HierarchyLinks {

  private static final int CHAINS = 256;

  @Param({"8", "64", "512"})
  public int depth;

  private Registry registry;
  private Hierarchy hierarchy;
  private long[][] chains;
  private long[] spare;
  private int next;
  private boolean away;

  @Setup(Level.Iteration)
  public void setup() {
    registry = new Registry();
    hierarchy = Hierarchy.of(registry);
    chains = new long[CHAINS][depth];
    spare = new long[CHAINS];
    for (int c = 0; c < CHAINS; c++) {
      registry.create(chains[c]);
      for (int i = 1; i < depth; i++) {
        hierarchy.attach(chains[c][i], chains[c][i - 1]);
      }
      spare[c] = registry.create();
      hierarchy.attach(spare[c], registry.create());
    }
  }

  private int chain() {
    return next++ & (CHAINS - 1);
  }

  @Benchmark
  public int depthOfLeaf() {
    return hierarchy.depth(chains[chain()][depth - 1]);
  }

  @Benchmark
  public void reparentMiddle() {
    final int c = chain();
    final long middle = chains[c][depth / 2];
    if (0 == c) {
      away = !away;
    }
    hierarchy.reparent(middle, away ? spare[c] : chains[c][depth / 2 - 1]);
  }

  @Benchmark
  public void detachAttachLeaf() {
    final long[] chain = chains[chain()];
    hierarchy.detach(chain[depth - 1]);
    hierarchy.attach(chain[depth - 1], chain[depth - 2]);
  }

  @Benchmark
  public void destroyAndRebuildRoot() {
    final long[] chain = chains[chain()];
    final long old = chain[0];
    registry.destroy(old); // its child becomes a root
    final long root = registry.create();
    hierarchy.attach(chain[1], root);
    chain[0] = root;
  }
}
