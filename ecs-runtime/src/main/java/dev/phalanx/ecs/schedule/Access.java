package dev.phalanx.ecs.schedule;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Storage;
import java.util.Arrays;
import java.util.Objects;

/**
 * What a system touches: for each component type whether it reads values, writes values, iterates
 * the storage or changes its structure; the context resources it reads or writes; whether it
 * creates entities; whether it needs the world alone. Immutable; built with {@link #builder()}.
 *
 * <h2>Kinds and conflicts</h2>
 *
 * <ul>
 *   <li>{@linkplain Builder#reads read}: values of a storage, by lookup or while iterating;
 *   <li>{@linkplain Builder#writes write}: values, in place (setters, chunk arrays); implies read;
 *   <li>{@linkplain Builder#iterates iterate}: a loop over the storage (a view, group or query that
 *       includes or excludes it), which raises the storage's iteration guard;
 *   <li>{@linkplain Builder#changesStructure structure}: emplaces, removes, sorts or clears (an
 *       element moves or appears), directly, not through a command buffer.
 * </ul>
 *
 * <p>Two accesses to one component type conflict when either changes its structure, or when one
 * writes and the other reads or writes (a loop that only iterates, as an exclusion filter does,
 * reads no value, so a write does not conflict with it). Loops over one storage do not conflict by
 * themselves: while a wave runs, a storage that no system of the wave may change is frozen, and any
 * number of threads iterate a frozen storage at once (the shared reads of {@link
 * dev.phalanx.ecs.SparseSet}), so systems that only read a storage run side by side. Resources
 * conflict on write against read or write; two systems that both create entities conflict; an
 * {@linkplain Builder#exclusive exclusive} system conflicts with every other. Commands recorded
 * into a system's {@link SystemContext#commands() buffer} are applied at the stage's sync point,
 * one system after another, and conflict with nothing.
 *
 * <p>The schedule widens a structural access before it compares: a structural change of any
 * component of an owning group moves elements of every storage the group owns, so it counts as a
 * structural change of each of them.
 */
public final class Access {

  /** A read of values. */
  static final int READ = 1;

  /** A write of values. */
  static final int WRITE = 2;

  /** A loop over the storage. */
  static final int ITERATE = 4;

  /** A structural change. */
  static final int STRUCTURE = 8;

  private static final Access NONE = new Access(new Builder());

  // Component types sorted by id, each with its kinds (READ | WRITE | ITERATE | STRUCTURE).
  final ComponentType<?, ?>[] types;
  final int[] kinds;
  // Resources, in the order declared, each with READ or READ | WRITE.
  final Class<?>[] resources;
  final int[] resourceKinds;
  final boolean createsEntities;
  final boolean exclusive;

  private Access(final Builder builder) {
    final int n = builder.typeCount;
    types = Arrays.copyOf(builder.types, n);
    kinds = Arrays.copyOf(builder.kinds, n);
    // Insertion sort by id: a system declares a handful of types.
    for (int i = 1; i < n; i++) {
      final ComponentType<?, ?> type = types[i];
      final int kind = kinds[i];
      int j = i - 1;
      while (j >= 0 && types[j].id() > type.id()) {
        types[j + 1] = types[j];
        kinds[j + 1] = kinds[j];
        j--;
      }
      types[j + 1] = type;
      kinds[j + 1] = kind;
    }
    resources = Arrays.copyOf(builder.resources, builder.resourceCount);
    resourceKinds = Arrays.copyOf(builder.resourceKinds, builder.resourceCount);
    createsEntities = builder.createsEntities;
    exclusive = builder.exclusive;
  }

  /** {@return an access that touches nothing} */
  public static Access none() {
    return NONE;
  }

  /** {@return a builder of an access that touches nothing yet} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@return whether this access reads the values of {@code type}} (a write reads too)
   *
   * @param type a component type
   */
  public boolean reads(final ComponentType<?, ?> type) {
    return 0 != (kindOf(type) & (READ | WRITE));
  }

  /**
   * {@return whether this access writes the values of {@code type}}
   *
   * @param type a component type
   */
  public boolean writes(final ComponentType<?, ?> type) {
    return 0 != (kindOf(type) & WRITE);
  }

  /**
   * {@return whether this access iterates the storage of {@code type}}
   *
   * @param type a component type
   */
  public boolean iterates(final ComponentType<?, ?> type) {
    return 0 != (kindOf(type) & ITERATE);
  }

  /**
   * {@return whether this access changes the structure of the storage of {@code type}}
   *
   * @param type a component type
   */
  public boolean changesStructure(final ComponentType<?, ?> type) {
    return 0 != (kindOf(type) & STRUCTURE);
  }

  /**
   * {@return whether this access touches {@code type} at all}
   *
   * @param type a component type
   */
  public boolean touches(final ComponentType<?, ?> type) {
    return 0 != kindOf(type) || exclusive;
  }

  /**
   * {@return whether this access reads resource {@code key} of the registry's context}
   *
   * @param key the resource's class
   */
  public boolean readsResource(final Class<?> key) {
    return exclusive || 0 != resourceKindOf(key);
  }

  /**
   * {@return whether this access writes resource {@code key} of the registry's context}
   *
   * @param key the resource's class
   */
  public boolean writesResource(final Class<?> key) {
    return exclusive || 0 != (resourceKindOf(key) & WRITE);
  }

  /** {@return whether this access creates entities} */
  public boolean createsEntities() {
    return createsEntities || exclusive;
  }

  /** {@return whether this access needs the world alone} */
  public boolean exclusive() {
    return exclusive;
  }

  /**
   * {@return why this access and {@code other} may not run at the same time, or {@code null} if
   * they may}: the first conflicting subject, by component id, then resources, then entities
   *
   * @param other another access
   */
  public String conflictWith(final Access other) {
    if (exclusive || other.exclusive) {
      return "the world: " + (exclusive ? "the first" : "the second") + " system is exclusive";
    }
    int i = 0;
    int j = 0;
    while (i < types.length && j < other.types.length) {
      final int a = types[i].id();
      final int b = other.types[j].id();
      if (a < b) {
        i++;
      } else if (a > b) {
        j++;
      } else {
        final String why = conflict(kinds[i], other.kinds[j]);
        if (null != why) {
          return types[i].name() + ": " + why;
        }
        i++;
        j++;
      }
    }
    for (int r = 0; r < resources.length; r++) {
      final int theirs = other.resourceKindOf(resources[r]);
      if (0 != theirs && 0 != ((resourceKinds[r] | theirs) & WRITE)) {
        return "resource "
            + resources[r].getName()
            + ": "
            + (0 != (resourceKinds[r] & WRITE) && 0 != (theirs & WRITE)
                ? "both write it"
                : "one writes what the other reads");
      }
    }
    if (createsEntities && other.createsEntities) {
      return "entities: both create entities";
    }
    return null;
  }

  /** Why two kinds of access to one component type conflict, or {@code null}. */
  static String conflict(final int mine, final int theirs) {
    if (0 != ((mine | theirs) & STRUCTURE)) {
      return 0 != (mine & STRUCTURE) && 0 != (theirs & STRUCTURE)
          ? "both change its structure"
          : "one changes the structure of what the other uses";
    }
    if (0 != (mine & WRITE) && 0 != (theirs & WRITE)) {
      return "both write it";
    }
    if ((0 != (mine & WRITE) && 0 != (theirs & READ))
        || (0 != (theirs & WRITE) && 0 != (mine & READ))) {
      return "one writes what the other reads";
    }
    return null;
  }

  int kindOf(final ComponentType<?, ?> type) {
    final int id = type.id();
    int low = 0;
    int high = types.length - 1;
    while (low <= high) {
      final int mid = (low + high) >>> 1;
      final int at = types[mid].id();
      if (at < id) {
        low = mid + 1;
      } else if (at > id) {
        high = mid - 1;
      } else {
        return kinds[mid];
      }
    }
    return 0;
  }

  private int resourceKindOf(final Class<?> key) {
    for (int r = 0; r < resources.length; r++) {
      if (resources[r] == key) {
        return resourceKinds[r];
      }
    }
    return 0;
  }

  /** {@return this access and {@code other}'s, together} */
  Access with(final Access other) {
    final Builder both = new Builder().merge(this).merge(other);
    return both.build();
  }

  /** {@return this access with a structural change of {@code type} added} */
  Access withStructure(final ComponentType<?, ?> type) {
    return new Builder().merge(this).changesStructure(type).build();
  }

  @Override
  public String toString() {
    final StringBuilder text = new StringBuilder("Access[");
    String separator = "";
    for (int i = 0; i < types.length; i++) {
      text.append(separator).append(types[i].name()).append(':').append(describe(kinds[i]));
      separator = ", ";
    }
    for (int r = 0; r < resources.length; r++) {
      text.append(separator)
          .append(resources[r].getSimpleName())
          .append(':')
          .append(0 != (resourceKinds[r] & WRITE) ? "write" : "read");
      separator = ", ";
    }
    if (createsEntities) {
      text.append(separator).append("creates entities");
      separator = ", ";
    }
    if (exclusive) {
      text.append(separator).append("exclusive");
    }
    return text.append(']').toString();
  }

  private static String describe(final int kind) {
    final StringBuilder text = new StringBuilder();
    if (0 != (kind & WRITE)) {
      text.append("write");
    } else if (0 != (kind & READ)) {
      text.append("read");
    }
    if (0 != (kind & ITERATE)) {
      text.append(text.length() > 0 ? "+" : "").append("iterate");
    }
    if (0 != (kind & STRUCTURE)) {
      text.append(text.length() > 0 ? "+" : "").append("structure");
    }
    return text.toString();
  }

  /**
   * Collects an {@link Access}. Declarations add up: reading and writing one type is a write.
   * Generated queries declare theirs through {@link AccessSource#declareAccess}.
   */
  public static final class Builder {
    private ComponentType<?, ?>[] types = new ComponentType<?, ?>[4];
    private int[] kinds = new int[4];
    private int typeCount;
    private Class<?>[] resources = new Class<?>[2];
    private int[] resourceKinds = new int[2];
    private int resourceCount;
    private boolean createsEntities;
    private boolean exclusive;

    private Builder() {}

    /**
     * Declares that the system reads the values of {@code type}.
     *
     * @param type a component type
     * @return this builder
     */
    public Builder reads(final ComponentType<?, ?> type) {
      return add(type, READ);
    }

    /**
     * Declares that the system writes (and reads) the values of {@code type}.
     *
     * @param type a component type
     * @return this builder
     */
    public Builder writes(final ComponentType<?, ?> type) {
      return add(type, READ | WRITE);
    }

    /**
     * Declares that the system loops over the storage of {@code type} (a view, group or query that
     * includes or excludes it).
     *
     * @param type a component type
     * @return this builder
     */
    public Builder iterates(final ComponentType<?, ?> type) {
      return add(type, ITERATE);
    }

    /**
     * Declares that the system emplaces, removes, sorts or clears elements of {@code type} directly
     * (not through its command buffer).
     *
     * @param type a component type
     * @return this builder
     */
    public Builder changesStructure(final ComponentType<?, ?> type) {
      return add(type, STRUCTURE);
    }

    /**
     * Declares that the system reads the values of {@code storage}'s type.
     *
     * @param storage a storage
     * @return this builder
     */
    public Builder reads(final Storage<?> storage) {
      return reads(storage.type());
    }

    /**
     * Declares that the system writes the values of {@code storage}'s type.
     *
     * @param storage a storage
     * @return this builder
     */
    public Builder writes(final Storage<?> storage) {
      return writes(storage.type());
    }

    /**
     * Declares that the system reads resource {@code key} of the registry's context.
     *
     * @param key the resource's class
     * @return this builder
     */
    public Builder readsResource(final Class<?> key) {
      return addResource(key, READ);
    }

    /**
     * Declares that the system writes resource {@code key} of the registry's context.
     *
     * @param key the resource's class
     * @return this builder
     */
    public Builder writesResource(final Class<?> key) {
      return addResource(key, READ | WRITE);
    }

    /**
     * Declares that the system creates entities directly (not through its command buffer).
     * Destroying entities directly removes components from every storage: declare {@link
     * #exclusive()} for that, or record the destruction into the command buffer.
     *
     * @return this builder
     */
    public Builder createsEntities() {
      createsEntities = true;
      return this;
    }

    /**
     * Declares that the system needs the world alone: it conflicts with every other system, and the
     * schedule locks nothing while it runs.
     *
     * @return this builder
     */
    public Builder exclusive() {
      exclusive = true;
      return this;
    }

    /**
     * Adds what {@code source} (a generated query, say) declares.
     *
     * @param source something that knows what it touches
     * @return this builder
     */
    public Builder uses(final AccessSource source) {
      Objects.requireNonNull(source, "source").declareAccess(this);
      return this;
    }

    /** {@return the access declared so far} */
    public Access build() {
      return new Access(this);
    }

    Builder merge(final Access access) {
      for (int i = 0; i < access.types.length; i++) {
        add(access.types[i], access.kinds[i]);
      }
      for (int r = 0; r < access.resources.length; r++) {
        addResource(access.resources[r], access.resourceKinds[r]);
      }
      createsEntities |= access.createsEntities;
      exclusive |= access.exclusive;
      return this;
    }

    private Builder add(final ComponentType<?, ?> type, final int kind) {
      Objects.requireNonNull(type, "type");
      for (int i = 0; i < typeCount; i++) {
        if (types[i] == type) {
          kinds[i] |= kind;
          return this;
        }
      }
      if (typeCount == types.length) {
        types = Arrays.copyOf(types, typeCount * 2);
        kinds = Arrays.copyOf(kinds, typeCount * 2);
      }
      types[typeCount] = type;
      kinds[typeCount++] = kind;
      return this;
    }

    private Builder addResource(final Class<?> key, final int kind) {
      Objects.requireNonNull(key, "key");
      for (int r = 0; r < resourceCount; r++) {
        if (resources[r] == key) {
          resourceKinds[r] |= kind;
          return this;
        }
      }
      if (resourceCount == resources.length) {
        resources = Arrays.copyOf(resources, resourceCount * 2);
        resourceKinds = Arrays.copyOf(resourceKinds, resourceCount * 2);
      }
      resources[resourceCount] = key;
      resourceKinds[resourceCount++] = kind;
      return this;
    }
  }
}
