package dev.phalanx.ecs;

import java.util.Arrays;

/**
 * Rewrites the {@code @EntityRef} fields of one element a {@link ChangeSet} wrote: first through
 * the change's {@link ChangeSet.References} mapping, if any, then each staged handle of the set to
 * the entity created for it. Knows, per component type, whether its storage has such fields at all,
 * so that an element without references costs one array read.
 */
final class ReferenceRewriter implements ColumnVisitor {

  private static final byte UNKNOWN = 0;
  private static final byte NONE = 1;
  private static final byte SOME = 2;

  // Per component type id: whether its storage has @EntityRef columns.
  private byte[] refs = new byte[32];
  private boolean probing;
  private boolean found;

  // The element being rewritten.
  private ChangeSet changes;
  private ChangeSet.References references;
  private int copy;
  private int position;
  private int shift;
  private int mask;

  /** {@return whether elements of {@code storage} have {@code @EntityRef} fields} */
  boolean hasRefs(final Storage<?> storage) {
    final int id = storage.type().id();
    if (id >= refs.length) {
      refs = Arrays.copyOf(refs, Math.max(id + 1, refs.length * 2));
    }
    if (UNKNOWN == refs[id]) {
      probing = true;
      found = false;
      storage.eachColumn(this);
      probing = false;
      refs[id] = found ? SOME : NONE;
    }
    return SOME == refs[id];
  }

  /** Rewrites the references of {@code storage}'s element at {@code position}. */
  void rewrite(
      final Storage<?> storage,
      final int position,
      final int copy,
      final ChangeSet.References references,
      final ChangeSet changes) {
    this.changes = changes;
    this.references = references;
    this.copy = copy;
    this.position = position;
    this.shift = storage.pageShift();
    this.mask = storage.pageSize() - 1;
    try {
      storage.eachColumn(this);
    } finally {
      this.changes = null;
      this.references = null;
    }
  }

  @Override
  public void longs(final String name, final long[][] pages, final boolean entityRef) {
    if (!entityRef) {
      return;
    }
    if (probing) {
      found = true;
      return;
    }
    final long[] page = pages[position >>> shift];
    final int offset = position & mask;
    long reference = page[offset];
    if (Entity.isNull(reference)) {
      return;
    }
    if (null != references) {
      reference = references.map(copy, reference);
    }
    page[offset] = changes.written(reference);
  }
}
