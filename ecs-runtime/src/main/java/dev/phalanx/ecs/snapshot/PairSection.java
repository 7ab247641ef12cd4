package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.relation.Pairs;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pairs of non-exclusive relationship kinds ({@link Pairs}) in snapshots: one block per kind
 * among the snapshot's extra blocks, named {@value #PREFIX} and the kind's name, holding the kind's
 * pairs as little-endian {@code source, target} handles. A kind's pairs travel with its tag
 * storage: a snapshot that writes the tag writes them. Writers that cannot carry pairs refuse,
 * naming the kind, rather than drop them.
 */
final class PairSection {

  /** The name of a pair block, before the kind's name. */
  static final String PREFIX = "dev.phalanx.pairs:";

  private PairSection() {}

  /**
   * {@return the pair blocks of the kinds whose tags are in {@code types} (every kind if null)}
   *
   * @throws IllegalStateException if a snapshot of chosen entities would hold pairs
   */
  static Map<String, byte[]> blocks(
      final Registry registry, final Set<ComponentType<?, ?>> types, final boolean chosen) {
    final Map<String, byte[]> blocks = new LinkedHashMap<>();
    for (final Pairs<?> kind : Pairs.declared(registry)) {
      if ((null != types && !types.contains(kind.type())) || 0 == kind.size()) {
        continue;
      }
      if (chosen) {
        throw new IllegalStateException(
            "cannot save the pairs of "
                + kind.name()
                + " in a snapshot of chosen entities, which does not carry pairs; leave "
                + kind.name()
                + " out of types(...), or save the whole registry");
      }
      final long[] pairs = kind.toArray();
      final ByteBuffer bytes = ByteBuffer.allocate(8 * pairs.length).order(ByteOrder.LITTLE_ENDIAN);
      bytes.asLongBuffer().put(pairs);
      blocks.put(PREFIX + kind.name(), bytes.array());
    }
    return blocks;
  }

  /**
   * Refuses a writer that cannot carry pairs ({@code what}) the tag storage of a kind holding
   * pairs.
   */
  static void refuseUncarried(
      final Registry registry, final Storage<?> storage, final String what) {
    // Runs at every delta write: a lookup that allocates nothing.
    final Pairs<?> kind = Pairs.find(registry, storage.type());
    if (null != kind && 0 != kind.size()) {
      throw new IllegalStateException(
          "cannot write "
              + what
              + " of "
              + kind.name()
              + ": it is the tag of a pair kind holding "
              + kind.size()
              + " pairs, which "
              + what
              + " does not carry; leave it out of types(...)");
    }
  }

  /**
   * Checks the pair blocks of a staged snapshot against {@code registry}, changing nothing, and
   * returns what restores them once the registry holds the snapshot.
   *
   * @throws SnapshotFormatException if a block names a kind not declared in {@code registry}, or is
   *     not a whole number of pairs
   */
  static Runnable plan(final StagedSnapshot staged, final Registry registry)
      throws SnapshotFormatException {
    final List<Pairs<?>> kinds = new ArrayList<>();
    final List<long[]> lists = new ArrayList<>();
    for (final Map.Entry<String, byte[]> block : staged.extras.entrySet()) {
      if (!block.getKey().startsWith(PREFIX)) {
        continue;
      }
      final String name = block.getKey().substring(PREFIX.length());
      Pairs<?> found = null;
      for (final Pairs<?> kind : Pairs.declared(registry)) {
        if (kind.name().equals(name)) {
          found = kind;
        }
      }
      if (null == found) {
        throw new SnapshotFormatException(
            -1,
            "the snapshot holds pairs of "
                + name
                + ", which is not a pair kind of the target registry: declare it with"
                + " Pairs.declare before loading");
      }
      if (0 != block.getValue().length % 16) {
        throw new SnapshotFormatException(
            -1, "the pair block of " + name + " is not a whole number of pairs");
      }
      final long[] pairs = new long[block.getValue().length / 8];
      ByteBuffer.wrap(block.getValue()).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(pairs);
      kinds.add(found);
      lists.add(pairs);
    }
    return () -> {
      for (int k = 0; k < kinds.size(); k++) {
        kinds.get(k).restore(lists.get(k));
      }
    };
  }

  /** {@return the extra blocks of the caller's own: those that are not pair blocks} */
  static Map<String, byte[]> userExtras(final Map<String, byte[]> extras) {
    final Map<String, byte[]> out = new LinkedHashMap<>();
    for (final Map.Entry<String, byte[]> extra : extras.entrySet()) {
      if (!extra.getKey().startsWith(PREFIX)) {
        out.put(extra.getKey(), extra.getValue());
      }
    }
    return out;
  }

  /**
   * Refuses a snapshot with pair blocks for a loader that cannot restore them.
   *
   * @throws SnapshotFormatException naming the kind
   */
  static void refuseIn(final StagedSnapshot staged, final String loader)
      throws SnapshotFormatException {
    for (final String name : staged.extras.keySet()) {
      if (name.startsWith(PREFIX)) {
        throw new SnapshotFormatException(
            -1,
            "the snapshot holds pairs of "
                + name.substring(PREFIX.length())
                + ", which a "
                + loader
                + " does not restore; load it with a SnapshotLoader");
      }
    }
  }
}
