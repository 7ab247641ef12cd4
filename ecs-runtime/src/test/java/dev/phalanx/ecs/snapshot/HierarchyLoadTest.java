package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.hierarchy.Hierarchy.NodeStorage;
import dev.phalanx.ecs.hierarchy.HierarchyTestAccess;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Hierarchies that arrive by snapshot or continuous load are whole on the client: the loaders check
 * a stream's links before anything changes (a broken hierarchy is refused with {@link
 * SnapshotFormatException}, the replica unchanged), and a continuous load rebuilds the children
 * lists and counts from the parent links that arrive, keeping local children.
 */
class HierarchyLoadTest {

  /** The remote world: root with children a and b, a with child c, and a lone root d. */
  private final Registry remote = new Registry();

  private final Hierarchy tree = Hierarchy.of(remote);
  private final long root = remote.create();
  private final long a = remote.create();
  private final long b = remote.create();
  private final long c = remote.create();
  private final long d = remote.create();

  HierarchyLoadTest() {
    tree.attach(a, root);
    tree.attach(b, root);
    tree.attach(c, a);
    tree.attach(d, remote.create());
    tree.detach(d);
  }

  private static byte[] save(final SnapshotWriter writer) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    writer.write(out);
    return out.toByteArray();
  }

  private static String dump(final Registry registry) throws IOException {
    final StringBuilder text = new StringBuilder();
    SnapshotDump.write(registry, text);
    return text.toString();
  }

  private static int indexOf(final byte[] bytes, final String text) {
    final byte[] wanted = text.getBytes(StandardCharsets.UTF_8);
    outer:
    for (int at = 0; at + wanted.length <= bytes.length; at++) {
      for (int i = 0; i < wanted.length; i++) {
        if (bytes[at + i] != wanted[i]) {
          continue outer;
        }
      }
      return at;
    }
    throw new AssertionError(text + " not found");
  }

  /** Renames a field (or any text) of a stream, keeping its length. */
  private static byte[] renamed(final byte[] bytes, final String from, final String to) {
    final byte[] copy = bytes.clone();
    final byte[] replacement = to.getBytes(StandardCharsets.UTF_8);
    System.arraycopy(replacement, 0, copy, indexOf(bytes, from), replacement.length);
    return copy;
  }

  private static String refusal(final Registry target, final byte[] bytes) throws IOException {
    try {
      new SnapshotLoader(target).load(new ByteArrayInputStream(bytes));
      return null;
    } catch (final SnapshotFormatException refused) {
      return refused.getMessage();
    }
  }

  private static String refusal(final ContinuousLoader loader, final byte[] bytes)
      throws IOException {
    try {
      loader.load(new ByteArrayInputStream(bytes));
      return null;
    } catch (final SnapshotFormatException refused) {
      return refused.getMessage();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Broken streams are refused.
  // ---------------------------------------------------------------------------------------------

  @Test
  void everySingleBitFlipOfTheHierarchySectionLoadsAWholeHierarchyOrIsRefused() throws IOException {
    final byte[] bytes = save(new SnapshotWriter(remote));
    // The node storage is the only storage: its section runs from its key to the end.
    final int from = indexOf(bytes, "Hierarchy$Node");
    int refusedByHierarchy = 0;
    int loaded = 0;
    final Registry replica = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(replica);
    loader.load(new ByteArrayInputStream(bytes));
    final long local = replica.create();
    Hierarchy.of(replica).attach(local, loader.map(a));
    for (int at = from; at < bytes.length; at++) {
      for (int bit = 0; bit < 8; bit++) {
        final byte[] bad = bytes.clone();
        bad[at] ^= (byte) (1 << bit);
        final String where = "byte " + at + " bit " + bit;
        // A snapshot load into a new registry.
        final Registry target = new Registry();
        final String message = refusal(target, bad);
        if (null != message) {
          assertEquals(0, target.entities().size(), where);
          assertEquals(null, target.findStorage(Hierarchy.TYPE), where);
          if (message.contains("hierarchy's nodes")) {
            refusedByHierarchy++;
          }
        } else {
          loaded++;
          assertEquals(List.of(), target.verify(), where);
        }
        // A continuous load into a replica that has a local child under a mirrored node.
        final String before = dump(replica);
        final String continuous = refusal(loader, bad);
        if (null != continuous) {
          assertEquals(before, dump(replica), where + ": the replica is unchanged");
        } else {
          assertEquals(List.of(), replica.verify(), where);
          if (replica.valid(loader.map(a))) {
            assertEquals(loader.map(a), Hierarchy.of(replica).parent(local), where);
          }
          // Back to the clean state for the next flip.
          loader.load(new ByteArrayInputStream(bytes));
          if (!Hierarchy.of(replica).nodes().contains(local)
              || Entity.isNull(Hierarchy.of(replica).parent(local))) {
            Hierarchy.of(replica).reparent(local, loader.map(a));
          }
        }
        assertEquals(List.of(), replica.verify(), where);
      }
    }
    assertTrue(refusedByHierarchy > 50, refusedByHierarchy + " refused by the hierarchy check");
    assertTrue(loaded > 0, loaded + " loaded");
  }

  @Test
  void aRenamedParentOrChildFieldIsRefusedInAFullSnapshot() throws IOException {
    final byte[] bytes = save(new SnapshotWriter(remote));
    for (final byte[] bad :
        List.of(
            renamed(bytes, "parent", "parenX"),
            renamed(bytes, "firstChild", "firstChilX"),
            renamed(bytes, "childCount", "childCounX"))) {
      final Registry target = new Registry();
      final String message = refusal(target, bad);
      assertTrue(null != message && message.contains("hierarchy's nodes"), message);
      assertEquals(0, target.entities().size());
      final Registry replica = new Registry();
      assertTrue(null != refusal(new ContinuousLoader(replica), bad));
      assertEquals(0, replica.entities().size());
    }
  }

  @Test
  void aRenamedFieldOfAStreamOfChosenEntitiesLoadsAWholeHierarchy() throws IOException {
    final byte[] bytes = save(new SnapshotWriter(remote).entities(root, a, b, c));
    final Registry replica = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(replica);
    loader.load(new ByteArrayInputStream(renamed(bytes, "firstChild", "firstChilX")));
    final Hierarchy mirrored = Hierarchy.of(replica);
    assertEquals(2, mirrored.childCount(loader.map(root)), "rebuilt from the parent links");
    assertEquals(2, mirrored.depth(loader.map(c)));
    assertEquals(List.of(), replica.verify());
    loader.load(new ByteArrayInputStream(renamed(bytes, "parent", "parenX")));
    assertEquals(0, mirrored.childCount(loader.map(root)), "no parent links: every node a root");
    assertEquals(List.of(), replica.verify());
  }

  @Test
  void aCycleADanglingParentOrAWrongCountIsRefusedBeforeAnythingChanges() throws IOException {
    final NodeStorage nodes = tree.nodes();
    // A cycle: root's parent set to c (c -> a -> root -> c).
    HierarchyTestAccess.setLinks(nodes, nodes.indexOf(root), c, Entity.NULL, Entity.NULL);
    final byte[] cycle = save(new SnapshotWriter(remote));
    HierarchyTestAccess.setLinks(nodes, nodes.indexOf(root), Entity.NULL, Entity.NULL, Entity.NULL);
    // A wrong count.
    HierarchyTestAccess.setCountAt(nodes, nodes.indexOf(a), 3);
    final byte[] count = save(new SnapshotWriter(remote));
    HierarchyTestAccess.setCountAt(nodes, nodes.indexOf(a), 1);
    assertEquals(List.of(), remote.verify());
    // A parent that is not in the snapshot: c's node names a destroyed entity.
    final long gone = remote.create();
    HierarchyTestAccess.setLinks(nodes, nodes.indexOf(d), gone, Entity.NULL, Entity.NULL);
    remote.destroy(gone);
    final byte[] dangling = save(new SnapshotWriter(remote));
    for (final byte[] bad : List.of(cycle, count, dangling)) {
      final Registry target = new Registry();
      final String message = refusal(target, bad);
      assertTrue(null != message && message.contains("hierarchy's nodes"), message);
      assertEquals(0, target.entities().size());
      final Registry replica = new Registry();
      final long mine = replica.create();
      final String before = dump(replica);
      final ContinuousLoader loader = new ContinuousLoader(replica);
      final String continuous = refusal(loader, bad);
      assertTrue(null != continuous && continuous.contains("hierarchy's nodes"), continuous);
      assertEquals(before, dump(replica));
      assertEquals(0, loader.size());
      assertTrue(replica.valid(mine));
    }
  }

  /**
   * A parent link to an entity the stream holds but that has no node is refused by the parent rule
   * itself, in a full snapshot and in a stream of chosen entities that lists that entity (only a
   * parent the stream does not list is cut).
   */
  @Test
  void aParentTheStreamHoldsWithoutANodeIsRefusedByTheParentRule() throws IOException {
    final NodeStorage nodes = tree.nodes();
    final long plain = remote.create();
    HierarchyTestAccess.setLinks(nodes, nodes.indexOf(d), plain, Entity.NULL, Entity.NULL);
    final String rule =
        "storage of the hierarchy's nodes: "
            + Entity.toString(d)
            + " names "
            + Entity.toString(plain)
            + " as parent, which has no node in the snapshot";
    final Registry target = new Registry();
    final String full = refusal(target, save(new SnapshotWriter(remote)));
    assertTrue(null != full && full.startsWith(rule), full);
    assertEquals(0, target.entities().size());
    final Registry replica = new Registry();
    final String chosen =
        refusal(new ContinuousLoader(replica), save(new SnapshotWriter(remote).entities(d, plain)));
    assertTrue(null != chosen && chosen.startsWith(rule), chosen);
    assertEquals(0, replica.entities().size());
    // Without plain in the stream, d's link is cut: d arrives as a root.
    final ContinuousLoader loader = new ContinuousLoader(replica);
    loader.load(new ByteArrayInputStream(save(new SnapshotWriter(remote).entities(d))));
    assertEquals(Entity.NULL, Hierarchy.of(replica).parent(loader.map(d)));
    assertEquals(List.of(), replica.verify());
  }

  @Test
  void aCycleInAStreamOfChosenEntitiesIsRefused() throws IOException {
    final NodeStorage nodes = tree.nodes();
    HierarchyTestAccess.setLinks(nodes, nodes.indexOf(root), c, Entity.NULL, Entity.NULL);
    final byte[] cycle = save(new SnapshotWriter(remote).entities(root, a, c));
    final Registry replica = new Registry();
    final String message = refusal(new ContinuousLoader(replica), cycle);
    assertTrue(null != message && message.contains("is its own ancestor"), message);
    assertEquals(0, replica.entities().size());
  }

  // ---------------------------------------------------------------------------------------------
  // Streaming chosen entities.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aFollowerWhoseLeaderIsNotSentArrivesAsARoot() throws IOException {
    final Registry replica = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(replica);
    loader.load(new ByteArrayInputStream(save(new SnapshotWriter(remote).entities(a, c))));
    final Hierarchy mirrored = Hierarchy.of(replica);
    assertEquals(Entity.NULL, mirrored.parent(loader.map(a)), "root was not sent");
    assertEquals(0, mirrored.depth(loader.map(a)));
    assertEquals(1, mirrored.depth(loader.map(c)));
    assertEquals(1, mirrored.childCount(loader.map(a)));
    assertEquals(List.of(), replica.verify());
  }

  @Test
  void aLeaderWhoseFollowersAreNotSentCountsNoChildren() throws IOException {
    final Registry replica = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(replica);
    loader.load(new ByteArrayInputStream(save(new SnapshotWriter(remote).entities(root, b))));
    final Hierarchy mirrored = Hierarchy.of(replica);
    final long leader = loader.map(root);
    assertEquals(1, mirrored.childCount(leader), "only b was sent");
    assertEquals(loader.map(b), mirrored.firstChild(leader));
    assertEquals(Entity.NULL, mirrored.nextSibling(loader.map(b)));
    assertEquals(List.of(), replica.verify());
    // Later the whole tree arrives: depths and lists follow.
    loader.load(new ByteArrayInputStream(save(new SnapshotWriter(remote).entities(root, a, b, c))));
    assertEquals(2, mirrored.childCount(leader));
    assertEquals(2, mirrored.depth(loader.map(c)));
    assertEquals(List.of(), replica.verify());
    // destroyTree on the client removes every child.
    mirrored.destroyTree(leader);
    for (final long e : new long[] {root, a, b, c}) {
      assertFalse(replica.valid(loader.map(e)) && replica.has(loader.map(e), Hierarchy.TYPE));
    }
    assertEquals(0, replica.alive());
    assertEquals(List.of(), replica.verify());
  }

  @Test
  void aLocalChildOfAMirroredNodeStaysInItsParentsListAcrossLoads() throws IOException {
    final Registry replica = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(replica);
    final byte[] full = save(new SnapshotWriter(remote));
    loader.load(new ByteArrayInputStream(full));
    final Hierarchy mirrored = Hierarchy.of(replica);
    final long local = replica.create();
    final long localGrandchild = replica.create();
    mirrored.attach(local, loader.map(a));
    mirrored.attach(localGrandchild, local);
    for (int round = 0; round < 3; round++) {
      loader.load(new ByteArrayInputStream(full));
      final Set<Long> children = new HashSet<>();
      mirrored.eachChild(loader.map(a), children::add);
      assertEquals(Set.of(loader.map(c), local), children, "round " + round);
      assertEquals(2, mirrored.childCount(loader.map(a)));
      assertEquals(3, mirrored.depth(localGrandchild));
      assertEquals(List.of(), replica.verify());
    }
    // The stream's own order comes first, then the local child.
    assertEquals(loader.map(c), mirrored.firstChild(loader.map(a)));
    // The remote moves c under b: the local child stays under a.
    tree.reparent(c, b);
    loader.load(new ByteArrayInputStream(save(new SnapshotWriter(remote))));
    assertEquals(List.of(local), children(mirrored, loader.map(a)));
    assertEquals(List.of(loader.map(c)), children(mirrored, loader.map(b)));
    assertEquals(List.of(), replica.verify());
    // The remote destroys a: the local child becomes a root, its own child kept.
    remote.destroy(a);
    loader.load(new ByteArrayInputStream(save(new SnapshotWriter(remote))));
    assertEquals(Entity.NULL, mirrored.parent(local));
    assertEquals(local, mirrored.parent(localGrandchild));
    assertEquals(List.of(), replica.verify());
  }

  private static List<Long> children(final Hierarchy hierarchy, final long parent) {
    final List<Long> children = new java.util.ArrayList<>();
    hierarchy.eachChild(parent, children::add);
    return children;
  }

  @Test
  void aFullSnapshotLoadKeepsTheSavedListsAndOrder() throws IOException {
    final Registry target = new Registry();
    new SnapshotLoader(target).load(new ByteArrayInputStream(save(new SnapshotWriter(remote))));
    final Hierarchy loaded = Hierarchy.of(target);
    for (final long e : new long[] {root, a, b, c, d}) {
      assertEquals(tree.parent(e), loaded.parent(e));
      assertEquals(tree.firstChild(e), loaded.firstChild(e));
      assertEquals(tree.nextSibling(e), loaded.nextSibling(e));
      assertEquals(tree.depth(e), loaded.depth(e));
    }
    assertEquals(List.of(), target.verify());
  }
}
