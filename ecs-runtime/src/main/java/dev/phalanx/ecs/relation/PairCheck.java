package dev.phalanx.ecs.relation;

import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The consistency check of one pair kind behind {@link Pairs#verify()}: reads the records, both
 * lists of every entity they name and the tag storage, changes nothing, and names every broken
 * invariant in words. Walks are bounded, so corrupted lists end the walk rather than the thread.
 */
final class PairCheck {

  private PairCheck() {}

  static void verify(
      final Registry registry,
      final Pairs<?> kind,
      final EmptyStorage<?> tags,
      final PairLinks links,
      final List<String> problems) {
    final String name = kind.name();
    final Set<Long> sources = new LinkedHashSet<>();
    final Set<Long> targets = new LinkedHashSet<>();
    int live = 0;
    for (int record = 0; record < links.records(); record++) {
      final long source = links.source(record);
      if (Entity.isNull(source)) {
        continue;
      }
      live++;
      final long target = links.target(record);
      final String pair = "(" + name + ", " + Entity.toString(target) + ") of " + entity(source);
      if (!registry.valid(source) || !registry.valid(target)) {
        problems.add("the pair " + pair + " names an entity that is not live");
      }
      if (links.find(source, target) != record) {
        problems.add("the pair " + pair + " is not found by its hash lookup");
      }
      if (!tags.contains(source)) {
        problems.add(entity(source) + " has the pair " + pair + " but not the " + name + " tag");
      }
      sources.add(source);
      targets.add(target);
    }
    if (live != links.size()) {
      problems.add(name + " counts " + links.size() + " pairs, but holds " + live);
    }
    int listed = 0;
    for (final long source : sources) {
      listed += verifyTargets(links, name, source, problems);
    }
    if (listed != live) {
      problems.add(name + "'s lists of targets hold " + listed + " pairs, not " + live);
    }
    listed = 0;
    for (final long target : targets) {
      listed += verifySources(links, name, target, problems);
    }
    if (listed != live) {
      problems.add(name + "'s lists of sources hold " + listed + " pairs, not " + live);
    }
    final long[] packed = tags.packed();
    for (int position = 0, size = tags.size(); position < size; position++) {
      final long tagged = packed[position];
      if (!Entity.isTombstone(tagged) && !sources.contains(tagged)) {
        problems.add(entity(tagged) + " has the " + name + " tag but no pair of it");
      }
    }
    if (kind.acyclic()) {
      verifyAcyclic(links, name, sources, problems);
    }
  }

  private static String entity(final long entity) {
    return Entity.toString(entity);
  }

  /** Walks {@code source}'s targets; returns how many it holds. */
  private static int verifyTargets(
      final PairLinks links, final String name, final long source, final List<String> problems) {
    int count = 0;
    int previous = PairLinks.NONE;
    for (int p = links.firstTarget(source);
        PairLinks.NONE != p && count <= links.size();
        p = links.nextTarget(p)) {
      count++;
      if (links.source(p) != source) {
        problems.add("the targets of " + entity(source) + " in " + name + " list another's pair");
      }
      if (links.previousTarget(p) != previous) {
        problems.add("the targets of " + entity(source) + " in " + name + " have asymmetric links");
      }
      previous = p;
    }
    if (links.lastTarget(source) != previous || links.targetCount(source) != count) {
      problems.add(
          "the targets of "
              + entity(source)
              + " in "
              + name
              + " count "
              + links.targetCount(source)
              + " or end wrongly; the list holds "
              + count);
    }
    return count;
  }

  /** Walks {@code target}'s sources; returns how many it holds. */
  private static int verifySources(
      final PairLinks links, final String name, final long target, final List<String> problems) {
    int count = 0;
    int previous = PairLinks.NONE;
    for (int p = links.firstSource(target);
        PairLinks.NONE != p && count <= links.size();
        p = links.nextSource(p)) {
      count++;
      if (links.target(p) != target) {
        problems.add("the sources of " + entity(target) + " in " + name + " list another's pair");
      }
      if (links.previousSource(p) != previous) {
        problems.add("the sources of " + entity(target) + " in " + name + " have asymmetric links");
      }
      previous = p;
    }
    if (links.lastSource(target) != previous || links.sourceCount(target) != count) {
      problems.add(
          "the sources of "
              + entity(target)
              + " in "
              + name
              + " count "
              + links.sourceCount(target)
              + " or end wrongly; the list holds "
              + count);
    }
    return count;
  }

  /** Kahn's algorithm: the sources left once no entity with an unvisited source remains. */
  private static void verifyAcyclic(
      final PairLinks links,
      final String name,
      final Set<Long> sources,
      final List<String> problems) {
    final Map<Long, Integer> incoming = new HashMap<>();
    for (final long source : sources) {
      for (int p = links.firstTarget(source); PairLinks.NONE != p; p = links.nextTarget(p)) {
        incoming.merge(links.target(p), 1, Integer::sum);
      }
    }
    final ArrayDeque<Long> ready = new ArrayDeque<>();
    for (final long source : sources) {
      if (!incoming.containsKey(source)) {
        ready.add(source);
      }
    }
    int done = 0;
    while (!ready.isEmpty()) {
      final long entity = ready.poll();
      done++;
      for (int p = links.firstTarget(entity); PairLinks.NONE != p; p = links.nextTarget(p)) {
        final long target = links.target(p);
        if (0 == incoming.merge(target, -1, Integer::sum) && sources.contains(target)) {
          ready.add(target);
        }
      }
    }
    if (done != sources.size()) {
      problems.add(
          (sources.size() - done)
              + " sources of "
              + name
              + " are on or after a cycle, and it is acyclic");
    }
  }
}
