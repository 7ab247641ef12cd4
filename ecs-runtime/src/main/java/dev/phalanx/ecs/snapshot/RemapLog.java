package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.Entity;
import java.util.Arrays;

/**
 * A loader's remote-to-local map changed while a load is staged, with the undo of each change: a
 * commit the registry refuses changed nothing, so the map goes back to what it was. Reused from one
 * load to the next; allocates nothing once its arrays have grown.
 */
final class RemapLog {

  /** The map the log changes: remote entities to local ones. */
  interface Mapping {
    /** {@return the local entity of {@code remote}, or {@code missing}} */
    long get(long remote, long missing);

    /** Maps {@code remote} to {@code local}. */
    void put(long remote, long local);

    /** Unmaps {@code remote}. */
    void remove(long remote);
  }

  private final Mapping map;
  // What the map held before each change (NULL: unmapped), in change order.
  private long[] remotes = new long[16];
  private long[] locals = new long[16];
  private int count;

  RemapLog(final Mapping map) {
    this.map = map;
  }

  /** Maps {@code remote} to {@code local} ({@link Entity#NULL}: unmaps it), logging the undo. */
  void remap(final long remote, final long local) {
    if (count == remotes.length) {
      remotes = Arrays.copyOf(remotes, 2 * count);
      locals = Arrays.copyOf(locals, 2 * count);
    }
    remotes[count] = remote;
    locals[count++] = map.get(remote, Entity.NULL);
    if (Entity.isNull(local)) {
      map.remove(remote);
    } else {
      map.put(remote, local);
    }
  }

  /** Puts the map back as it was before the first change since {@link #forget}. */
  void undo() {
    for (int i = count - 1; i >= 0; i--) {
      if (Entity.isNull(locals[i])) {
        map.remove(remotes[i]);
      } else {
        map.put(remotes[i], locals[i]);
      }
    }
    count = 0;
  }

  /** Keeps the changes made: the log starts empty. */
  void forget() {
    count = 0;
  }
}
