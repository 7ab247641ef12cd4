package dev.phalanx.ecs.relation;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.RuntimeView;
import dev.phalanx.ecs.internal.Failures;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * A non-exclusive relationship kind in one registry: any number of (source, target) pairs per
 * source, flecs's pairs such as {@code (Likes, bob)}. The kind is a tag component
 * ({@code @Component} class without fields) declared once per registry with {@link #declare}; its
 * storage holds exactly the sources that have at least one pair, so a view requires {@code (Likes,
 * *)} by including the tag and excludes it by excluding the tag. The pairs themselves are kept
 * here, each in the list of its source's targets and in the list of its target's sources.
 *
 * <pre>{@code
 * Pairs<Likes> likes = Pairs.declare(registry, Likes_Traits.TYPE, OnTargetDestroyed.REMOVE, false);
 * likes.add(alice, bob);
 * likes.add(alice, carol);
 * for (int p = likes.firstSource(bob); Pairs.NONE != p; p = likes.nextSource(p)) {
 *   long fan = likes.source(p); // alice
 * }
 * }</pre>
 *
 * <h2>Rules, checked before anything changes</h2>
 *
 * <ul>
 *   <li>Source and target are live entities ({@link IllegalArgumentException} naming the pair, the
 *       entity and the kind).
 *   <li>An acyclic kind refuses a pair whose target reaches the source through pairs of the kind
 *       (an entity paired with itself among them), O(pairs reachable from the target).
 *   <li>Adding a pair that exists changes nothing and returns {@code false}; so does removing one
 *       that does not.
 *   <li>The tag follows the pairs: the first pair of a source emplaces it, the last one removed
 *       removes it, both with the storage's usual signals, which the kind hears first (a listener
 *       of the tag sees the pair already there, or already gone). Removing the tag, or destroying
 *       the source, drops every pair of the source (flecs's {@code remove(Likes, *)}). Emplacing
 *       the tag by hand (not through {@link #add}) is refused by an {@link IllegalStateException}
 *       from the kind's listener, after the storage inserted it: the source then has the tag and no
 *       pair, which {@link #verify()} names; remove the tag again. Clones and prefabs refuse an
 *       entity with pairs (they do not copy pairs): give {@code EntityCloner.skip} the kind's type,
 *       and add the clone's pairs.
 *   <li>When a target is destroyed the kind's {@link OnTargetDestroyed} policy applies to each pair
 *       naming it, as for exclusive kinds: {@code REMOVE} removes the pair, {@code DESTROY_SOURCES}
 *       destroys the source (breadth first, with the linked destroys of every kind), {@code REFUSE}
 *       refuses the destroy while a source that stays has such a pair.
 * </ul>
 *
 * <h2>Costs</h2>
 *
 * <p>{@link #has(long, long)} is a hash lookup, O(1) expected. Adding, removing and replacing a
 * pair is O(1) expected list surgery, plus, for an acyclic kind, the walk of the pairs reachable
 * from the target; the first and last pair of a source also emplace or remove the tag, a signal.
 * Walking a source's targets or a target's sources is O(result) with no allocation ({@link
 * #firstTarget}, {@link #nextTarget}, {@link #firstSource}, {@link #nextSource}). Destroying a
 * target costs O(its pairs), a source O(its pairs). Memory: six {@code int}s per entity index (the
 * ends and lengths of both lists), 32 bytes per pair record and 32 to 64 per pair in the hash map
 * (kept at most half full).
 *
 * <h2>Snapshots, clones, deltas</h2>
 *
 * <p>{@code SnapshotWriter} writes the pairs of every declared kind whose tag it writes, and {@code
 * SnapshotLoader} restores them into a registry where the kind is declared (it refuses, changing
 * nothing, a snapshot whose pairs name a kind that is not). Writers that cannot carry pairs (a
 * snapshot of chosen entities, deltas) refuse a registry holding pairs of a kind they would write,
 * naming the kind. Clones and prefabs refuse, before anything changes, an entity with pairs of a
 * kind they would copy; see the rules above.
 *
 * @param <T> the kind's tag class
 */
public final class Pairs<T> extends TargetedKind {

  /** No pair: what the walks return at their end. */
  public static final int NONE = PairLinks.NONE;

  private final Registry registry;
  private final EmptyStorage<T> tags;
  private final OnTargetDestroyed onTargetDestroyed;
  private final boolean acyclic;
  private final PairLinks links = new PairLinks();
  // The pair whose source's tag is being emplaced by add(); linked when the tag's construct is
  // heard, before any listener of the user.
  private long pendingSource = Entity.NULL;
  private long pendingTarget = Entity.NULL;
  // The cycle check's scratch: the entities reached, marked by index with an epoch.
  private final EntityQueue reached = new EntityQueue();
  private int[] marks = new int[0];
  private int epoch;

  private Pairs(
      final Registry registry,
      final EmptyStorage<T> tags,
      final OnTargetDestroyed onTargetDestroyed,
      final boolean acyclic) {
    this.registry = registry;
    this.tags = tags;
    this.onTargetDestroyed = onTargetDestroyed;
    this.acyclic = acyclic;
    tags.onConstruct().connectFirst((r, entity) -> tagged(entity));
    tags.onDestroy().connectFirst((r, entity) -> untagged(entity));
    registry.addCheck(name() + " pairs", this::verify);
  }

  /**
   * Declares {@code kind} a non-exclusive relationship kind of {@code registry} and returns it; a
   * declaration repeated with the same policies returns the kind declared first.
   *
   * @param <T> the kind's tag class
   * @param registry the registry
   * @param kind the kind's tag type (a {@code @Component} class without fields)
   * @param onTargetDestroyed what happens to a pair when its target is destroyed
   * @param acyclic whether a chain of pairs may not come back to where it started
   * @return the kind
   * @throws IllegalStateException if the kind was declared with other policies, or if its storage
   *     already holds entities (which would be sources without pairs); nothing changed
   */
  public static <T> Pairs<T> declare(
      final Registry registry,
      final ComponentType<T, ? extends EmptyStorage<T>> kind,
      final OnTargetDestroyed onTargetDestroyed,
      final boolean acyclic) {
    Objects.requireNonNull(onTargetDestroyed, "onTargetDestroyed");
    final Relations relations = Relations.of(registry);
    final Pairs<T> existing = relations.pairs(kind);
    if (null != existing) {
      if (existing.onTargetDestroyed != onTargetDestroyed || existing.acyclic != acyclic) {
        throw new IllegalStateException(
            "cannot declare "
                + kind.name()
                + " with onTargetDestroyed = "
                + onTargetDestroyed
                + ", acyclic = "
                + acyclic
                + ": it is declared with onTargetDestroyed = "
                + existing.onTargetDestroyed
                + ", acyclic = "
                + existing.acyclic);
      }
      return existing;
    }
    final EmptyStorage<T> tags = registry.storage(kind);
    if (0 != tags.size()) {
      throw new IllegalStateException(
          "cannot declare "
              + kind.name()
              + " a pair kind: its storage holds "
              + tags.size()
              + " entities, which would be sources without pairs; declare it before using the"
              + " tag");
    }
    return relations.attach(new Pairs<>(registry, tags, onTargetDestroyed, acyclic));
  }

  /**
   * {@return the pair kind {@code kind} of {@code registry}}
   *
   * @param <T> the kind's tag class
   * @param registry the registry
   * @param kind the kind's tag type
   * @throws IllegalStateException if {@code kind} was not declared in {@code registry}
   */
  public static <T> Pairs<T> of(
      final Registry registry, final ComponentType<T, ? extends EmptyStorage<T>> kind) {
    Pairs<T> pairs = find(registry, kind, false);
    if (null == pairs && registry.storage(kind) instanceof PairStorage) {
      pairs = find(registry, kind, true); // a kind declared by annotation, on its first use
    }
    if (null == pairs) {
      throw new IllegalStateException(
          kind.name() + " is not a pair kind of this registry: declare it with Pairs.declare");
    }
    return pairs;
  }

  /**
   * {@return the pair kind whose tag is {@code type} in {@code registry}, or null if there is none}
   * Allocates nothing.
   *
   * @param registry the registry
   * @param type any component type
   */
  public static Pairs<?> find(final Registry registry, final ComponentType<?, ?> type) {
    final Relations relations = registry.context().find(Relations.class);
    return null == relations ? null : relations.pairs(type);
  }

  /** The kind of tag {@code kind}, or null; {@code declared}: it must exist (asserted). */
  private static <T> Pairs<T> find(
      final Registry registry, final ComponentType<T, ?> kind, final boolean declared) {
    final Relations relations = registry.context().find(Relations.class);
    final Pairs<T> pairs = null == relations ? null : relations.pairs(kind);
    assert !declared || null != pairs : kind.name() + " was declared when its storage was made";
    return pairs;
  }

  /** {@return the kind's tag storage: the sources that have at least one pair} */
  public EmptyStorage<T> storage() {
    return tags;
  }

  /** {@return the kind's tag type} */
  public ComponentType<T, ?> type() {
    return tags.type();
  }

  @Override
  public OnTargetDestroyed onTargetDestroyed() {
    return onTargetDestroyed;
  }

  /** {@return whether a chain of this kind's pairs may not come back to where it started} */
  public boolean acyclic() {
    return acyclic;
  }

  // ---------------------------------------------------------------------------------------------
  // Changes
  // ---------------------------------------------------------------------------------------------

  /**
   * Adds the pair ({@code source}, {@code target}) at the end of the source's targets and of the
   * target's sources; the source's first pair emplaces the tag. O(1) expected.
   *
   * @param source a live entity
   * @param target a live entity
   * @return whether the pair was added ({@code false}: it existed, nothing changed)
   * @throws IllegalArgumentException if an entity is not live or the pair would close a cycle of an
   *     acyclic kind; nothing changed
   * @throws RuntimeException what the tag's storage refuses (nothing changed) or the first
   *     exception its listeners threw (the pair and tag are in place)
   */
  public boolean add(final long source, final long target) {
    checkLive(source, "add", source, target);
    checkLive(target, "add", source, target);
    if (NONE != find(source, target)) {
      return false;
    }
    checkAcyclic(source, target, "add");
    if (0 != links.targetCount(source)) {
      links.link(source, target);
      return true;
    }
    pendingSource = source;
    pendingTarget = target;
    try {
      tags.emplace(source);
    } finally {
      pendingSource = Entity.NULL;
      pendingTarget = Entity.NULL;
    }
    return true;
  }

  /**
   * Removes the pair ({@code source}, {@code target}); the source's last pair removes the tag. O(1)
   * expected.
   *
   * @param source any handle
   * @param target any handle
   * @return whether the pair was removed ({@code false}: it did not exist, nothing changed)
   * @throws RuntimeException what the tag's storage refuses (nothing changed) or the first
   *     exception its listeners threw (the pair and tag are gone)
   */
  public boolean remove(final long source, final long target) {
    final int record = find(source, target);
    if (NONE == record) {
      return false;
    }
    removeRecord(record, source);
    return true;
  }

  /** Removes a pair of {@code source}: its last one through the tag, which the kind hears first. */
  private void removeRecord(final int record, final long source) {
    if (1 == links.targetCount(source)) {
      tags.remove(source);
    } else {
      links.unlink(record);
    }
  }

  /**
   * Removes every pair of {@code source} (flecs's {@code remove(Likes, *)}), by removing its tag.
   *
   * @param source any handle
   * @return whether it had a pair
   * @throws RuntimeException as {@link #remove(long, long)}
   */
  public boolean removeAll(final long source) {
    return tags.remove(source);
  }

  /**
   * Replaces the pair ({@code source}, {@code from}) by ({@code source}, {@code to}): the pair
   * keeps its place among the source's targets and goes to the end of {@code to}'s sources. If the
   * source already has ({@code source}, {@code to}), the pair with {@code from} is removed and the
   * other stays where it was. Publishes nothing (the tag stays). O(1) expected, plus the cycle
   * check.
   *
   * @param source a source of the kind
   * @param from the target it has
   * @param to the target it gets, live
   * @throws IllegalArgumentException if the pair ({@code source}, {@code from}) does not exist,
   *     {@code to} is not live or the pair would close a cycle of an acyclic kind; nothing changed
   */
  public void replace(final long source, final long from, final long to) {
    final int record = find(source, from);
    if (NONE == record) {
      throw refused(
          "replace",
          source,
          from,
          ": " + Entity.toString(source) + " has no such pair; add it first");
    }
    checkLive(to, "replace", source, from);
    if (from == to) {
      return;
    }
    final int existing = find(source, to);
    if (NONE != existing) {
      links.unlink(record);
      return;
    }
    checkAcyclic(source, to, "replace");
    links.retarget(record, to);
  }

  // ---------------------------------------------------------------------------------------------
  // Queries
  // ---------------------------------------------------------------------------------------------

  /**
   * {@return whether the pair ({@code source}, {@code target}) exists} O(1) expected.
   *
   * @param source any handle
   * @param target any handle
   */
  public boolean has(final long source, final long target) {
    return NONE != find(source, target);
  }

  /**
   * {@return whether {@code source} has a pair of this kind, {@code (Kind, *)}} O(1).
   *
   * @param source any handle
   */
  public boolean has(final long source) {
    return tags.contains(source);
  }

  /**
   * {@return how many pairs {@code source} has}
   *
   * @param source any handle
   */
  public int targetCount(final long source) {
    return registry.valid(source) ? links.targetCount(source) : 0;
  }

  /**
   * {@return how many pairs name {@code target}}
   *
   * @param target any handle
   */
  public int sourceCount(final long target) {
    return registry.valid(target) ? links.sourceCount(target) : 0;
  }

  /**
   * {@return the first pair of {@code source}, in the order they were added, or {@link #NONE}} With
   * {@link #nextTarget} and {@link #target(int)}, walks the source's targets without allocating;
   * read the next pair before removing the current one. O(1).
   *
   * @param source any handle
   */
  public int firstTarget(final long source) {
    return registry.valid(source) ? links.firstTarget(source) : NONE;
  }

  /**
   * {@return the pair after {@code pair} among its source's, or {@link #NONE}} O(1).
   *
   * @param pair a pair of this kind
   */
  public int nextTarget(final int pair) {
    return links.nextTarget(pair);
  }

  /**
   * {@return the first pair naming {@code target}, in the order they were added, or {@link #NONE}}
   * With {@link #nextSource} and {@link #source(int)}, walks the target's sources without
   * allocating; read the next pair before removing the current one. O(1).
   *
   * @param target any handle
   */
  public int firstSource(final long target) {
    return registry.valid(target) ? links.firstSource(target) : NONE;
  }

  /**
   * {@return the pair after {@code pair} among those naming its target, or {@link #NONE}} O(1).
   *
   * @param pair a pair of this kind
   */
  public int nextSource(final int pair) {
    return links.nextSource(pair);
  }

  /**
   * {@return the source of {@code pair}}
   *
   * @param pair a pair of this kind
   */
  public long source(final int pair) {
    return links.source(pair);
  }

  /**
   * {@return the target of {@code pair}}
   *
   * @param pair a pair of this kind
   */
  public long target(final int pair) {
    return links.target(pair);
  }

  /**
   * {@return the targets of {@code source}, in the order added, in a new array} O(result).
   *
   * @param source any handle
   */
  public long[] targets(final long source) {
    final long[] out = new long[targetCount(source)];
    int at = 0;
    for (int p = firstTarget(source); NONE != p; p = links.nextTarget(p)) {
      out[at++] = links.target(p);
    }
    return out;
  }

  /**
   * {@return the sources naming {@code target}, in the order added, in a new array} O(result).
   *
   * @param target any handle
   */
  public long[] sources(final long target) {
    final long[] out = new long[sourceCount(target)];
    int at = 0;
    for (int p = firstSource(target); NONE != p; p = links.nextSource(p)) {
      out[at++] = links.source(p);
    }
    return out;
  }

  /**
   * Calls {@code visitor} with each source of {@code (Kind, target)} that {@code filter} contains,
   * in the order the pairs were added: a query that fixes the target. O(sources of the target), one
   * membership test of {@code filter} per source; allocates nothing. The visitor may remove the
   * pair it is called for; a walk whose next pair was changed otherwise ends there.
   *
   * @param target any handle
   * @param filter the other terms (include the components the sources must have, exclude those they
   *     must not); a view with nothing included contains nothing
   * @param visitor called with each source
   */
  public void eachSource(final long target, final RuntimeView filter, final LongConsumer visitor) {
    for (int p = firstSource(target); NONE != p; ) {
      final long source = links.source(p);
      final int next = links.nextSource(p);
      if (filter.contains(source)) {
        visitor.accept(source);
      }
      p = NONE != next && links.target(next) == target ? next : NONE;
    }
  }

  /** {@return how many pairs the kind holds now} O(1). */
  public int size() {
    return links.size();
  }

  /**
   * {@return the broken invariants of this kind, in words; empty if all hold} Checks that every
   * pair names live entities, that both lists of every entity hold exactly its pairs with symmetric
   * links and the right ends and counts, that the hash map finds every pair, that the tag storage
   * holds exactly the sources with a pair, and for an acyclic kind that no chain of pairs comes
   * back to its start. {@link Registry#verify()} runs it. O(pairs); allocates.
   */
  public List<String> verify() {
    final List<String> problems = new ArrayList<>();
    verify(problems);
    return problems;
  }

  private void verify(final List<String> problems) {
    PairCheck.verify(registry, this, tags, links, problems);
  }

  // ---------------------------------------------------------------------------------------------
  // Upkeep
  // ---------------------------------------------------------------------------------------------

  /** The record of the pair of exactly these handles, or {@link #NONE}. */
  private int find(final long source, final long target) {
    if (!registry.valid(source) || !registry.valid(target)) {
      return NONE;
    }
    return links.find(source, target);
  }

  /** Heard first on the tag's construct: links the pair {@link #add} is making. */
  private void tagged(final long entity) {
    if (entity != pendingSource) {
      throw new IllegalStateException(
          "the "
              + name()
              + " tag was added to "
              + Entity.toString(entity)
              + " by hand: it is the tag of a pair kind, which follows the pairs; remove it, and"
              + " add pairs with Pairs.add");
    }
    links.link(pendingSource, pendingTarget);
    pendingSource = Entity.NULL;
    pendingTarget = Entity.NULL;
  }

  /** Heard first on the tag's destroy: the source loses every pair. */
  private void untagged(final long entity) {
    for (int p = links.firstTarget(entity); NONE != p; p = links.firstTarget(entity)) {
      links.unlink(p);
    }
  }

  private void checkLive(
      final long entity, final String operation, final long source, final long target) {
    if (!registry.valid(entity)) {
      throw refused(
          operation,
          source,
          target,
          ": " + Entity.toString(entity) + " is not a live entity; a pair names live entities");
    }
    if (registry.isBeingDestroyed(entity)) {
      throw refused(
          operation,
          source,
          target,
          ": "
              + Entity.toString(entity)
              + " is being destroyed (a destroy listener asked); a pair names entities that stay");
    }
  }

  private void checkAcyclic(final long source, final long target, final String operation) {
    if (acyclic && reaches(target, source)) {
      throw refused(
          operation,
          source,
          target,
          ": "
              + (source == target ? "an entity paired with itself" : "the pairs from the target")
              + " come back to "
              + Entity.toString(source)
              + ", and the kind is acyclic");
    }
  }

  /** Whether {@code to} is {@code from} or can be reached from it through pairs of this kind. */
  private boolean reaches(final long from, final long to) {
    if (from == to) {
      return true;
    }
    if (++epoch == 0) {
      Arrays.fill(marks, 0);
      epoch = 1;
    }
    reached.clear();
    mark(from);
    while (reached.hasNext()) {
      for (int p = links.firstTarget(reached.next()); NONE != p; p = links.nextTarget(p)) {
        final long step = links.target(p);
        if (step == to) {
          return true;
        }
        mark(step);
      }
    }
    return false;
  }

  private void mark(final long entity) {
    final int index = Entity.index(entity);
    if (index >= marks.length) {
      marks = Arrays.copyOf(marks, Math.max(index + 1, marks.length * 2));
    }
    if (epoch != marks[index]) {
      marks[index] = epoch;
      reached.add(entity);
    }
  }

  private IllegalArgumentException refused(
      final String operation, final long source, final long target, final String reason) {
    return new IllegalArgumentException(
        "cannot "
            + operation
            + " ("
            + name()
            + ", "
            + Entity.toString(target)
            + ") on "
            + Entity.toString(source)
            + reason);
  }

  /**
   * {@return the pair kinds declared in {@code registry}, in declaration order} Empty if none.
   *
   * @param registry the registry
   */
  public static List<Pairs<?>> declared(final Registry registry) {
    final Relations relations = registry.context().find(Relations.class);
    return null == relations ? List.of() : relations.pairKinds();
  }

  /**
   * {@return every pair of this kind as {@code source, target, source, target, ...}, the sources in
   * the order of the tag storage and each source's targets in the order they were added} For
   * writers (snapshots). O(pairs); allocates the array.
   */
  public long[] toArray() {
    final long[] out = new long[2 * links.size()];
    int at = 0;
    final long[] packed = tags.packed();
    for (int position = 0, size = tags.size(); position < size && at < out.length; position++) {
      final long source = packed[position];
      if (Entity.isTombstone(source)) {
        continue;
      }
      for (int p = links.firstTarget(source);
          NONE != p && at < out.length;
          p = links.nextTarget(p)) {
        out[at++] = source;
        out[at++] = links.target(p);
      }
    }
    return at == out.length ? out : Arrays.copyOf(out, at);
  }

  /**
   * Restores the pairs of a registry whose tag storage was restored raw (a loaded snapshot), in the
   * order of {@link #toArray()}; publishes nothing. For loaders. Everything is checked first: this
   * kind holds no pair, every entity is live, no pair is listed twice, the sources are exactly the
   * tag's holders, and an acyclic kind gets no cycle.
   *
   * @param pairs {@code source, target, source, target, ...}
   * @throws IllegalStateException naming the kind, the pair and the rule broken; nothing changed
   */
  public void restore(final long[] pairs) {
    if (0 != links.size() || 0 != (pairs.length & 1)) {
      throw new IllegalStateException(
          "cannot restore the pairs of " + name() + ": it holds pairs already, or the list is odd");
    }
    try {
      for (int i = 0; i < pairs.length; i += 2) {
        final long source = pairs[i];
        final long target = pairs[i + 1];
        if (!registry.valid(source) || !registry.valid(target) || !tags.contains(source)) {
          throw restoreRefused(source, target, "names an entity that is not live or not tagged");
        }
        if (NONE != links.find(source, target)) {
          throw restoreRefused(source, target, "is listed twice");
        }
        if (acyclic && reaches(target, source)) {
          throw restoreRefused(source, target, "closes a cycle of an acyclic kind");
        }
        links.link(source, target);
      }
      if (countTagged() != sourcesWithPairs()) {
        throw new IllegalStateException(
            "cannot restore the pairs of " + name() + ": a holder of the tag has no pair");
      }
    } catch (final IllegalStateException refused) {
      links.clear();
      throw refused;
    }
  }

  private IllegalStateException restoreRefused(
      final long source, final long target, final String rule) {
    return new IllegalStateException(
        "cannot restore the pairs of "
            + name()
            + ": the pair ("
            + name()
            + ", "
            + Entity.toString(target)
            + ") of "
            + Entity.toString(source)
            + " "
            + rule);
  }

  private int countTagged() {
    int count = 0;
    final long[] packed = tags.packed();
    for (int position = 0, size = tags.size(); position < size; position++) {
      if (!Entity.isTombstone(packed[position])) {
        count++;
      }
    }
    return count;
  }

  private int sourcesWithPairs() {
    int count = 0;
    final long[] packed = tags.packed();
    for (int position = 0, size = tags.size(); position < size; position++) {
      if (!Entity.isTombstone(packed[position]) && 0 != links.targetCount(packed[position])) {
        count++;
      }
    }
    return count;
  }

  @Override
  public String name() {
    return tags.type().name();
  }

  @Override
  boolean hasSources(final long target) {
    return 0 != links.sourceCount(target);
  }

  @Override
  void checkRemoveSources(final long target) {
    for (int p = links.firstSource(target); NONE != p; p = links.nextSource(p)) {
      // Only a source's last pair touches the tag storage.
      if (1 == links.targetCount(links.source(p))) {
        tags.checkRemove(links.source(p));
      }
    }
  }

  @Override
  boolean anyLinked() {
    return 0 != links.size();
  }

  @Override
  void appendSources(final long target, final EntityQueue queue) {
    for (int p = links.firstSource(target); NONE != p; p = links.nextSource(p)) {
      queue.add(links.source(p));
    }
  }

  @Override
  Throwable removeSources(final long target, Throwable failure) {
    for (int p = links.firstSource(target); NONE != p; p = links.firstSource(target)) {
      final long source = links.source(p);
      try {
        removeRecord(p, source);
      } catch (final RuntimeException thrown) {
        failure = Failures.add(failure, thrown);
      }
      if (NONE != links.find(source, target)) {
        return failure; // refused, or added again by a listener: stop rather than loop
      }
    }
    return failure;
  }

  @Override
  void rebuild() {
    // The pairs are their own truth: loaders restore them through restore().
  }

  @Override
  public String toString() {
    return "Pairs(" + name() + ", " + links.size() + " pairs)";
  }
}
