package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * Hierarchies streamed by deltas are whole on the replica: {@link DeltaLoader} checks a delta's
 * links before anything changes (a cycle, a parent held without a node, a whole list that
 * contradicts its links or count: refused, replica unchanged) and rebuilds the children lists and
 * counts from the parent links after the apply (the stream's order, then local children), with any
 * interest set.
 */
class DeltaHierarchyTest {

  /** A tag a listener adds on the replica. */
  private static final class Seen {}

  private static final ComponentType<Seen, ?> SEEN = ComponentType.tag(Seen.class);

  // ---------------------------------------------------------------------------------------------
  // The random model.
  // ---------------------------------------------------------------------------------------------

  @Test
  void randomHierarchiesStreamedByDeltasStayWholeOnTheReplica() throws IOException {
    for (long seed = 1; seed <= 24; seed++) {
      run(seed, 60);
    }
  }

  private static void run(final long seed, final int ticks) throws IOException {
    final SplittableRandom random = new SplittableRandom(seed);
    final Registry server = new Registry();
    final Hierarchy tree = Hierarchy.of(server);
    final boolean full = 0 == seed % 3;
    final int[] epoch = {0};
    final LongPredicate interest =
        full ? null : e -> 0 != (mix(Entity.index(e), epoch[0] + seed) & 3);
    final DeltaWriter writer = new DeltaWriter(server).everyValue(Hierarchy.TYPE);
    writer.interest(interest);
    final Registry client = new Registry();
    final DeltaLoader loader = new DeltaLoader(client);
    final Set<Long> locals = new HashSet<>();
    final List<Long> alive = new ArrayList<>();
    for (int tick = 0; tick < ticks; tick++) {
      mutate(server, tree, random, alive, 1 + random.nextInt(8));
      if (0 == tick % 7) {
        epoch[0]++;
      }
      final int length = writer.write();
      loader.load(writer.bytes(), length);
      final String where = "seed " + seed + ", tick " + tick;
      check(server, tree, client, loader, locals, full, where);
      addLocalChild(client, loader, alive, locals, random);
    }
  }

  private static int mix(final int index, final long salt) {
    long z = index * 0x9E3779B97F4A7C15L + salt;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    return (int) (z ^ (z >>> 31));
  }

  private static void mutate(
      final Registry server,
      final Hierarchy tree,
      final SplittableRandom random,
      final List<Long> alive,
      final int steps) {
    for (int step = 0; step < steps; step++) {
      alive.removeIf(e -> !server.valid(e));
      final int op = random.nextInt(10);
      if (alive.size() < 4 || op < 3) {
        alive.add(server.create());
        continue;
      }
      final long child = alive.get(random.nextInt(alive.size()));
      final long parent = alive.get(random.nextInt(alive.size()));
      switch (op) {
        case 3, 4 -> {
          if (child != parent
              && Entity.isNull(tree.parent(child))
              && !tree.isAncestor(child, parent)) {
            tree.attach(child, parent);
          }
        }
        case 5 -> {
          if (child != parent && !tree.isAncestor(child, parent)) {
            tree.reparent(child, parent);
          }
        }
        case 6 -> tree.detach(child);
        case 7 -> {
          if (random.nextInt(3) == 0) {
            tree.destroyTree(child);
          }
        }
        case 8 -> server.destroy(child);
        default -> {
          if (server.has(child, Hierarchy.TYPE) && 0 == tree.childCount(child)) {
            server.remove(child, Hierarchy.TYPE);
          }
        }
      }
    }
  }

  /** The replica attaches a local entity under a mirrored one now and then. */
  private static void addLocalChild(
      final Registry client,
      final DeltaLoader loader,
      final List<Long> alive,
      final Set<Long> locals,
      final SplittableRandom random) {
    if (alive.isEmpty() || random.nextInt(4) != 0) {
      return;
    }
    final long parent = loader.map(alive.get(random.nextInt(alive.size())));
    if (client.valid(parent)) {
      final long local = client.create();
      Hierarchy.of(client).attach(local, parent);
      locals.add(local);
    }
  }

  private static void check(
      final Registry server,
      final Hierarchy tree,
      final Registry client,
      final DeltaLoader loader,
      final Set<Long> locals,
      final boolean full,
      final String where) {
    assertEquals(List.of(), client.verify(), where);
    locals.removeIf(e -> !client.valid(e));
    final Hierarchy mirror = Hierarchy.of(client);
    final Set<Long> mapped = new HashSet<>();
    server
        .entities()
        .each(
            remote -> {
              final long local = loader.map(remote);
              if (Entity.isNull(local)) {
                return;
              }
              mapped.add(local);
              // The parent link: the server's, mapped (NULL for a parent the replica lacks).
              assertEquals(
                  loader.map(tree.parent(remote)),
                  mirror.parent(local),
                  where + ": parent of " + Entity.toString(remote));
              // The children: the server's that the replica holds, in order when all are held, then
              // the local children.
              final List<Long> expected = new ArrayList<>();
              boolean complete = true;
              for (long c = tree.firstChild(remote); !Entity.isNull(c); c = tree.nextSibling(c)) {
                if (Entity.isNull(loader.map(c))) {
                  complete = false;
                } else {
                  expected.add(loader.map(c));
                }
              }
              final List<Long> actual = new ArrayList<>();
              final List<Long> localChildren = new ArrayList<>();
              for (long c = mirror.firstChild(local);
                  !Entity.isNull(c);
                  c = mirror.nextSibling(c)) {
                (locals.contains(c) ? localChildren : actual).add(c);
              }
              if (complete) {
                assertEquals(
                    expected,
                    mirror.childCount(local) == actual.size() + localChildren.size()
                        ? actual.subList(0, actual.size())
                        : List.of(),
                    where + ": children of " + Entity.toString(remote));
                assertEquals(
                    expected,
                    listed(mirror, local).subList(0, expected.size()),
                    where + ": the stream's children come first");
              } else {
                assertEquals(
                    new HashSet<>(expected),
                    new HashSet<>(actual),
                    where + ": children of " + Entity.toString(remote));
              }
            });
    assertEquals(loader.size(), mapped.size(), where);
    client
        .entities()
        .each(
            local -> {
              for (final long link :
                  new long[] {
                    mirror.parent(local),
                    mirror.firstChild(local),
                    mirror.nextSibling(local),
                    mirror.previousSibling(local)
                  }) {
                assertTrue(
                    Entity.isNull(link) || mapped.contains(link) || locals.contains(link),
                    where + ": " + Entity.toString(local) + " links " + Entity.toString(link));
              }
              if (locals.contains(local)) {
                assertTrue(
                    mapped.contains(mirror.parent(local)) || Entity.isNull(mirror.parent(local)),
                    where);
              }
            });
    if (full) {
      assertEquals(server.alive(), client.alive() - locals.size(), where);
    }
  }

  private static List<Long> listed(final Hierarchy tree, final long parent) {
    final List<Long> children = new ArrayList<>();
    for (long c = tree.firstChild(parent); !Entity.isNull(c); c = tree.nextSibling(c)) {
      children.add(c);
    }
    return children;
  }

  // ---------------------------------------------------------------------------------------------
  // Local children, partial interest.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aParentOutsideTheInterestSetMakesTheChildARootAndLocalChildrenStay() {
    final Registry server = new Registry();
    final Hierarchy tree = Hierarchy.of(server);
    final long root = server.create();
    final long a = server.create();
    final long b = server.create();
    tree.attach(a, root);
    tree.attach(b, a);
    final DeltaWriter writer = new DeltaWriter(server).everyValue(Hierarchy.TYPE);
    writer.entities(a, b);
    final Registry client = new Registry();
    final Hierarchy mirror = Hierarchy.of(client);
    final DeltaLoader loader = new DeltaLoader(client);
    load(writer, loader);
    assertEquals(Entity.NULL, mirror.parent(loader.map(a)));
    assertEquals(loader.map(a), mirror.parent(loader.map(b)));
    assertEquals(1, mirror.childCount(loader.map(a)));
    final long local = client.create();
    mirror.attach(local, loader.map(a));
    server.create();
    load(writer, loader);
    assertEquals(List.of(loader.map(b), local), listed(mirror, loader.map(a)));
    assertEquals(2, mirror.childCount(loader.map(a)));
    assertEquals(List.of(), client.verify());
  }

  private static void load(final DeltaWriter writer, final DeltaLoader loader) {
    final int length = writer.write();
    try {
      loader.load(writer.bytes(), length);
    } catch (final SnapshotFormatException e) {
      throw new AssertionError(e);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Bad links: every single-bit flip, re-signed as a hostile peer would.
  // ---------------------------------------------------------------------------------------------

  @Test
  void everyBitFlipOfADeltaWithLinksIsRefusedOrLoadsAWholeHierarchy() throws IOException {
    final Registry server = new Registry();
    final Hierarchy tree = Hierarchy.of(server);
    final long root = server.create();
    final long a = server.create();
    final long b = server.create();
    final long c = server.create();
    tree.attach(a, root);
    tree.attach(b, root);
    tree.attach(c, a);
    final DeltaWriter writer = new DeltaWriter(server).everyValue(Hierarchy.TYPE);
    final byte[] first = LoaderWorlds.delta(writer);
    tree.reparent(c, b);
    tree.detach(a);
    tree.attach(a, c);
    final byte[] second = LoaderWorlds.delta(writer);
    final int[] refused = new int[2];
    flipAll(null, first, refused);
    flipAll(first, second, refused);
    // The checks refuse links, not only the checksum or counts: some flips loaded before the fix.
    assertTrue(refused[1] > 0, "hierarchy refusals: " + refused[1]);
  }

  private static void flipAll(final byte[] base, final byte[] delta, final int[] refused)
      throws IOException {
    for (int bit = 0; bit < (delta.length - DeltaFormat.TRAILER) * 8; bit++) {
      final byte[] bad = delta.clone();
      bad[bit >>> 3] ^= (byte) (1 << (bit & 7));
      resign(bad);
      final Registry client = new Registry();
      Hierarchy.of(client);
      final DeltaLoader loader = new DeltaLoader(client);
      if (null != base) {
        loader.load(base, base.length);
      }
      final String before = dump(client);
      final long tick = loader.tick();
      final int size = loader.size();
      try {
        loader.load(bad, bad.length);
      } catch (final SnapshotFormatException e) {
        refused[0]++;
        if (e.getMessage().contains("hierarchy")) {
          refused[1]++;
        }
        assertEquals(before, dump(client), "bit " + bit + ": " + e.getMessage());
        assertEquals(tick, loader.tick());
        assertEquals(size, loader.size());
        continue;
      } catch (final RuntimeException e) {
        fail("bit " + bit + " of " + delta.length + " bytes", e);
      }
      assertEquals(List.of(), client.verify(), "bit " + bit);
    }
  }

  /** Recomputes the checksum, as a hostile peer would. */
  private static void resign(final byte[] delta) {
    final int crc = DeltaFormat.crc(new java.util.zip.CRC32C(), delta, 0, delta.length - 4);
    for (int i = 0; i < 4; i++) {
      delta[delta.length - 4 + i] = (byte) (crc >>> (8 * i));
    }
  }

  private static String dump(final Registry registry) throws IOException {
    final StringBuilder text = new StringBuilder();
    SnapshotDump.write(registry, text);
    return text.toString();
  }

  // ---------------------------------------------------------------------------------------------
  // Hostile links, one rule each: the node section is the delta's last, so its columns end at the
  // checksum (parent, firstChild, previousSibling, nextSibling: n longs each; childCount: n ints).
  // ---------------------------------------------------------------------------------------------

  private static final int NODES = 2;

  private static int column(final byte[] delta, final int field) {
    return delta.length - DeltaFormat.TRAILER - NODES * (4 * 8 + 4) + field * NODES * 8;
  }

  private static long sentEntity(final byte[] delta, final int i) {
    return ByteBuffer.wrap(delta)
        .order(ByteOrder.LITTLE_ENDIAN)
        .getLong(column(delta, 0) - (NODES - i) * 8);
  }

  private static int rootIndex(final byte[] delta) {
    return Entity.isNull(
            ByteBuffer.wrap(delta).order(ByteOrder.LITTLE_ENDIAN).getLong(column(delta, 0)))
        ? 0
        : 1;
  }

  private static String refusal(
      final byte[] base, final byte[] delta, final Registry client, final DeltaLoader loader)
      throws IOException {
    Hierarchy.of(client);
    if (null != base) {
      loader.load(base, base.length);
    }
    final String before = dump(client);
    resign(delta);
    try {
      loader.load(delta, delta.length);
      return null;
    } catch (final SnapshotFormatException e) {
      assertEquals(before, dump(client));
      assertEquals(List.of(), client.verify());
      return e.getMessage();
    }
  }

  @Test
  void aDeltaWhoseLinksFormACycleIsRefused() throws IOException {
    final Registry server = new Registry();
    final long root = server.create();
    final long a = server.create();
    Hierarchy.of(server).attach(a, root);
    final DeltaWriter writer = new DeltaWriter(server).everyValue(Hierarchy.TYPE);
    final byte[] delta = LoaderWorlds.delta(writer);
    final int r = rootIndex(delta);
    final ByteBuffer bytes = ByteBuffer.wrap(delta).order(ByteOrder.LITTLE_ENDIAN);
    bytes.putLong(column(delta, 0) + r * 8, sentEntity(delta, 1 - r));
    final Registry client = new Registry();
    final String message = refusal(null, delta, client, new DeltaLoader(client));
    assertTrue(null != message && message.contains("is its own ancestor"), String.valueOf(message));
  }

  @Test
  void aDeltaWhoseCountDisagreesWithItsWholeListIsRefused() throws IOException {
    final Registry server = new Registry();
    final long root = server.create();
    final long a = server.create();
    Hierarchy.of(server).attach(a, root);
    final DeltaWriter writer = new DeltaWriter(server).everyValue(Hierarchy.TYPE);
    final byte[] delta = LoaderWorlds.delta(writer);
    final int r = rootIndex(delta);
    ByteBuffer.wrap(delta).order(ByteOrder.LITTLE_ENDIAN).putInt(column(delta, 4) + r * 4, 2);
    final Registry client = new Registry();
    final String message = refusal(null, delta, client, new DeltaLoader(client));
    assertTrue(
        null != message && message.contains("counts 2 children but lists 1"),
        String.valueOf(message));
  }

  @Test
  void aDeltaNamingAHeldParentWithoutANodeIsRefused() throws IOException {
    final Registry server = new Registry();
    final long root = server.create();
    final long a = server.create();
    final long plain = server.create();
    final Hierarchy tree = Hierarchy.of(server);
    tree.attach(a, root);
    final DeltaWriter writer = new DeltaWriter(server).everyValue(Hierarchy.TYPE);
    final byte[] first = LoaderWorlds.delta(writer);
    tree.detach(a);
    tree.attach(a, root);
    final byte[] second = LoaderWorlds.delta(writer);
    final int r = rootIndex(second);
    // a's parent becomes plain: held by the replica, but without a node anywhere.
    ByteBuffer.wrap(second)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(column(second, 0) + (1 - r) * 8, plain);
    final Registry client = new Registry();
    final DeltaLoader loader = new DeltaLoader(client);
    final String message = refusal(first, second, client, loader);
    assertTrue(
        null != message && message.contains("has no node in the delta or the replica"),
        String.valueOf(message));
    assertEquals(loader.map(root), Hierarchy.of(client).parent(loader.map(a)));
  }

  /**
   * The parent a forged link names loses its node in the same delta (the node section removes it):
   * the replica still holds that node before the apply, but not after, so the link is refused as
   * one to a parent without a node.
   */
  @Test
  void aDeltaNamingAParentWhoseNodeItRemovesIsRefused() throws IOException {
    final Registry server = new Registry();
    final long root = server.create();
    final long a = server.create();
    final Hierarchy tree = Hierarchy.of(server);
    tree.attach(a, root);
    final DeltaWriter writer = new DeltaWriter(server).everyValue(Hierarchy.TYPE);
    final byte[] first = LoaderWorlds.delta(writer);
    server.remove(root, Hierarchy.TYPE);
    assertTrue(Entity.isNull(tree.parent(a)));
    final byte[] second = LoaderWorlds.delta(writer);
    // One node sent (a, now a root): its parent column is the first of the section's last 36 bytes.
    final int parentColumn = second.length - DeltaFormat.TRAILER - (4 * 8 + 4);
    final ByteBuffer bytes = ByteBuffer.wrap(second).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(a, bytes.getLong(parentColumn - 8), "the sent entity precedes the columns");
    assertTrue(Entity.isNull(bytes.getLong(parentColumn)));
    bytes.putLong(parentColumn, root);
    final Registry client = new Registry();
    final DeltaLoader loader = new DeltaLoader(client);
    final String message = refusal(first, second, client, loader);
    assertTrue(
        null != message && message.contains("has no node in the delta or the replica"),
        String.valueOf(message));
    assertEquals(loader.map(root), Hierarchy.of(client).parent(loader.map(a)));
  }

  /**
   * A whole children list (every child sent) that leaves out a sent child naming the list's owner
   * as parent is refused, the owner being the first node of the section.
   */
  @Test
  void aWholeListThatLeavesOutASentChildIsRefused() throws IOException {
    final Registry server = new Registry();
    final long root = server.create();
    final long a = server.create();
    final long b = server.create();
    final Hierarchy tree = Hierarchy.of(server);
    tree.attach(a, root);
    tree.attach(b, root);
    final DeltaWriter writer = new DeltaWriter(server).everyValue(Hierarchy.TYPE);
    final byte[] delta = LoaderWorlds.delta(writer);
    final int n = 3;
    final int parents = delta.length - DeltaFormat.TRAILER - n * (4 * 8 + 4);
    final ByteBuffer bytes = ByteBuffer.wrap(delta).order(ByteOrder.LITTLE_ENDIAN);
    final long[] sent = new long[n];
    for (int i = 0; i < n; i++) {
      sent[i] = bytes.getLong(parents - (n - i) * 8);
    }
    assertEquals(root, sent[0], "the list's owner is the section's first node");
    final long first = bytes.getLong(parents + n * 8);
    final long left = first == a ? b : a;
    final int at = Arrays.asList(sent[0], sent[1], sent[2]).indexOf(first);
    // root lists only its first child (whose next sibling is cut, root's count 1); the other child
    // still names root as parent.
    bytes.putLong(parents + (3 * n + at) * 8, Entity.NULL);
    bytes.putInt(parents + 4 * n * 8, 1);
    final Registry client = new Registry();
    final String message = refusal(null, delta, client, new DeltaLoader(client));
    assertTrue(
        null != message
            && message.contains(
                Entity.toString(left)
                    + " is not among the children of its parent, "
                    + Entity.toString(root)),
        String.valueOf(message));
  }

  /**
   * A delta that hangs a node under the entity the replica holds as that node's child, without
   * sending the child, is refused as a cycle: the replica's nodes the delta leaves alone keep their
   * links to the nodes it writes again.
   */
  @Test
  void aDeltaHangingANodeUnderItsUnsentChildIsRefused() throws IOException {
    final Registry server = new Registry();
    final long root = server.create();
    final long a = server.create();
    final long z = server.create();
    final Hierarchy tree = Hierarchy.of(server);
    tree.attach(a, root);
    final DeltaWriter writer = new DeltaWriter(server);
    final byte[] first = LoaderWorlds.delta(writer);
    final long top = server.create();
    tree.attach(root, top);
    final byte[] second = LoaderWorlds.delta(writer);
    final int n = 3;
    final List<Long> sent = sent(second, n);
    assertEquals(Set.of(root, a, top), Set.copyOf(sent));
    final ByteBuffer bytes = ByteBuffer.wrap(second).order(ByteOrder.LITTLE_ENDIAN);
    // The node sent for a goes to z instead (a new root): a is not sent, it keeps its links.
    final int at = sent.indexOf(a);
    bytes.putLong(links(second, n, 0) - (n - at) * 8, z);
    bytes.putLong(links(second, n, 0) + at * 8, Entity.NULL);
    // root's parent becomes a, its child on the replica; top lists no child.
    final int r = sent.indexOf(root);
    final int t = sent.indexOf(top);
    bytes.putLong(links(second, n, 0) + r * 8, a);
    bytes.putLong(links(second, n, 1) + t * 8, Entity.NULL);
    bytes.putInt(links(second, n, 4) + t * 4, 0);
    final Registry client = new Registry();
    final DeltaLoader loader = new DeltaLoader(client);
    final String message = refusal(first, second, client, loader);
    assertTrue(null != message && message.contains("is its own ancestor"), String.valueOf(message));
    assertEquals(loader.map(root), Hierarchy.of(client).parent(loader.map(a)));
  }

  /**
   * A delta whose node section lacks a link column (a field the replica does not know: here a
   * renamed one) loads as if that link were {@code NULL} in every node sent; the lists are rebuilt
   * from the parent links.
   */
  @Test
  void aDeltaWithoutASiblingColumnLoadsAWholeHierarchy() throws IOException {
    final Registry server = new Registry();
    final long root = server.create();
    final long a = server.create();
    Hierarchy.of(server).attach(a, root);
    final DeltaWriter writer = new DeltaWriter(server);
    final byte[] delta = LoaderWorlds.delta(writer);
    rename(delta, "previousSibling", "previousSiblinX");
    resign(delta);
    final Registry client = new Registry();
    final Hierarchy mirror = Hierarchy.of(client);
    final DeltaLoader loader = new DeltaLoader(client);
    loader.load(delta, delta.length);
    assertEquals(loader.map(root), mirror.parent(loader.map(a)));
    assertEquals(List.of(loader.map(a)), listed(mirror, loader.map(root)));
    assertEquals(List.of(), client.verify());
  }

  /**
   * A new last child is sent with its previous sibling, not with its parent (whose first child is
   * the same): it is linked to the parent's node the replica holds.
   */
  @Test
  void aNewLastChildIsLinkedToAParentTheDeltaDoesNotCarry() throws IOException {
    final Registry server = new Registry();
    final long root = server.create();
    final long a = server.create();
    final Hierarchy tree = Hierarchy.of(server);
    tree.attach(a, root);
    final DeltaWriter writer = new DeltaWriter(server);
    final Registry client = new Registry();
    final DeltaLoader loader = new DeltaLoader(client);
    load(writer, loader);
    final long b = server.create();
    tree.attach(b, root, 1);
    load(writer, loader);
    final Hierarchy mirror = Hierarchy.of(client);
    assertEquals(loader.map(root), mirror.parent(loader.map(b)));
    assertEquals(List.of(loader.map(a), loader.map(b)), listed(mirror, loader.map(root)));
    assertEquals(2, mirror.childCount(loader.map(root)));
    assertEquals(List.of(), client.verify());
  }

  /**
   * Lists whose links loop (every node its own first child and next sibling) are refused quickly:
   * each walk stops after as many steps as there are nodes sent.
   */
  @Test
  void aDeltaWhoseListsLoopIsRefusedQuickly() throws IOException {
    final Registry server = new Registry();
    final long root = server.create();
    final Hierarchy tree = Hierarchy.of(server);
    final int children = 7;
    for (int i = 0; i < children; i++) {
      tree.attach(server.create(), root);
    }
    final DeltaWriter writer = new DeltaWriter(server).everyValue(Hierarchy.TYPE);
    final byte[] delta = LoaderWorlds.delta(writer);
    final int n = children + 1;
    final List<Long> sent = sent(delta, n);
    final ByteBuffer bytes = ByteBuffer.wrap(delta).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      if (sent.get(i) != root) {
        bytes.putLong(links(delta, n, 1) + i * 8, sent.get(i));
        bytes.putLong(links(delta, n, 3) + i * 8, sent.get(i));
      }
    }
    final Registry client = new Registry();
    final String message =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5), () -> refusal(null, delta, client, new DeltaLoader(client)));
    assertTrue(
        null != message && message.contains(" as a child, wrongly"), String.valueOf(message));
  }

  /**
   * A children list that runs through every node sent and then reaches a node the delta does not
   * carry is not whole: it is not read (whatever its links), and the lists are rebuilt from the
   * parent links.
   */
  @Test
  void aListReachingAnUnsentNodeAfterEveryNodeSentIsNotRead() throws IOException {
    final Registry server = new Registry();
    final long t = server.create();
    final long p = server.create();
    final long q = server.create();
    final Hierarchy tree = Hierarchy.of(server);
    tree.attach(p, t);
    final DeltaWriter writer = new DeltaWriter(server);
    final Registry client = new Registry();
    final Hierarchy mirror = Hierarchy.of(client);
    final DeltaLoader loader = new DeltaLoader(client);
    load(writer, loader);
    // The replica gives q a node of its own (a local child): held, with a node, never sent.
    final long local = client.create();
    mirror.attach(local, loader.map(q));
    final long c = server.create();
    tree.attach(c, p);
    final byte[] second = LoaderWorlds.delta(writer);
    final int n = 3;
    final List<Long> sent = sent(second, n);
    assertEquals(Set.of(t, p, c), Set.copyOf(sent));
    final ByteBuffer bytes = ByteBuffer.wrap(second).order(ByteOrder.LITTLE_ENDIAN);
    // t moves under q; p's list runs c, t, p, then q.
    bytes.putLong(links(second, n, 0) + sent.indexOf(t) * 8, q);
    bytes.putLong(links(second, n, 3) + sent.indexOf(c) * 8, t);
    bytes.putLong(links(second, n, 3) + sent.indexOf(t) * 8, p);
    bytes.putLong(links(second, n, 3) + sent.indexOf(p) * 8, q);
    resign(second);
    loader.load(second, second.length);
    assertEquals(Set.of(local, loader.map(t)), Set.copyOf(listed(mirror, loader.map(q))));
    assertEquals(List.of(loader.map(p)), listed(mirror, loader.map(t)));
    assertEquals(List.of(loader.map(c)), listed(mirror, loader.map(p)));
    assertEquals(List.of(), client.verify());
  }

  /** The {@code field}'s column of a delta whose node section (its last) sends {@code n} nodes. */
  private static int links(final byte[] delta, final int n, final int field) {
    return delta.length - DeltaFormat.TRAILER - n * (4 * 8 + 4) + field * n * 8;
  }

  /** The entities whose nodes a delta sends, {@code n} of them. */
  private static List<Long> sent(final byte[] delta, final int n) {
    final ByteBuffer bytes = ByteBuffer.wrap(delta).order(ByteOrder.LITTLE_ENDIAN);
    final List<Long> sent = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      sent.add(bytes.getLong(links(delta, n, 0) - (n - i) * 8));
    }
    return sent;
  }

  /** Renames a field (or any text) of a stream in place, keeping its length. */
  private static void rename(final byte[] bytes, final String from, final String to) {
    final byte[] wanted = from.getBytes(StandardCharsets.UTF_8);
    outer:
    for (int at = 0; at + wanted.length <= bytes.length; at++) {
      for (int i = 0; i < wanted.length; i++) {
        if (bytes[at + i] != wanted[i]) {
          continue outer;
        }
      }
      final byte[] replacement = to.getBytes(StandardCharsets.UTF_8);
      System.arraycopy(replacement, 0, bytes, at, replacement.length);
      return;
    }
    throw new AssertionError(from + " not found");
  }

  /**
   * Without {@code everyValue}, a node changed in place is not sent again (the hierarchy's storage
   * is untracked): a new child whose parent's node the replica already holds, and the delta does
   * not carry, is linked to that node on the replica.
   */
  @Test
  void aNewChildOfANodeTheDeltaDoesNotCarryIsLinkedToIt() throws IOException {
    final Registry server = new Registry();
    final long root = server.create();
    final long x = server.create();
    final Hierarchy tree = Hierarchy.of(server);
    tree.attach(x, root);
    final DeltaWriter writer = new DeltaWriter(server);
    final Registry client = new Registry();
    final DeltaLoader loader = new DeltaLoader(client);
    load(writer, loader);
    final long y = server.create();
    tree.attach(y, x);
    load(writer, loader);
    final Hierarchy mirror = Hierarchy.of(client);
    assertEquals(loader.map(x), mirror.parent(loader.map(y)));
    assertEquals(loader.map(root), mirror.parent(loader.map(x)));
    assertEquals(1, mirror.childCount(loader.map(x)));
    assertEquals(2, mirror.depth(loader.map(y)));
    assertEquals(List.of(), client.verify());
  }

  // ---------------------------------------------------------------------------------------------
  // Listeners that change the world during an apply.
  // ---------------------------------------------------------------------------------------------

  /**
   * A node listener on the replica that, at its k-th call (every k), destroys another mapped entity
   * with a node and tags a third: the apply completes, the destroyed entity's remaining values are
   * skipped (it stays mapped until the writer says it is gone), the hierarchy is whole.
   */
  @Test
  void aListenerThatChangesTheWorldDuringAnApplyLeavesItWhole() throws IOException {
    for (int k = 1; ; k++) {
      final Registry server = new Registry();
      final Hierarchy tree = Hierarchy.of(server);
      final long root = server.create();
      final long a = server.create();
      final long b = server.create();
      final long c = server.create();
      tree.attach(a, root);
      tree.attach(b, root);
      tree.attach(c, a);
      final DeltaWriter writer = new DeltaWriter(server).everyValue(Hierarchy.TYPE);
      final Registry client = new Registry();
      final DeltaLoader loader = new DeltaLoader(client);
      final int[] calls = {0};
      final boolean[] destroyed = {false};
      final int kth = k;
      final ComponentListener listener =
          (registry, entity) -> {
            if (++calls[0] == kth) {
              final long victim = loader.map(a);
              if (registry.valid(victim) && victim != entity) {
                registry.destroy(victim);
                destroyed[0] = true;
              }
              final long tagged = loader.map(b);
              if (registry.valid(tagged) && !registry.has(tagged, SEEN)) {
                registry.emplace(tagged, SEEN, null);
              }
            }
          };
      final Hierarchy mirror = Hierarchy.of(client);
      mirror.nodes().onConstruct().connect(listener);
      mirror.nodes().onUpdate().connect(listener);
      load(writer, loader);
      tree.reparent(c, b);
      load(writer, loader);
      assertEquals(List.of(), client.verify(), "k " + k);
      client
          .entities()
          .each(
              local -> {
                for (final long link :
                    new long[] {
                      mirror.parent(local), mirror.firstChild(local), mirror.nextSibling(local)
                    }) {
                  assertTrue(Entity.isNull(link) || client.valid(link), "k " + kth);
                }
              });
      if (calls[0] < k) {
        assertTrue(k > 2, "the listener ran");
        return;
      }
      assertEquals(loader.map(b), mirror.parent(loader.map(c)), "k " + k);
      assertTrue(client.has(loader.map(b), SEEN), "k " + k);
      assertEquals(!destroyed[0], client.valid(loader.map(a)), "k " + k);
      if (destroyed[0]) {
        // The writer has not said a is gone, so it stays mapped (to a dead local entity).
        assertEquals(4, loader.size(), "k " + k);
      }
    }
  }
}
