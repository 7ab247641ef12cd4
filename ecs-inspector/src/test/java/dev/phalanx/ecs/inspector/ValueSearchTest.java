package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code world.query}'s {@code where}: field tests (equality, ranges of numbers) against a plain
 * model of the values; its bound on positions scanned; its refusals, each leaving the world as it
 * was.
 */
class ValueSearchTest {

  /** A component kept as one object per entity, its fields read through the accessor. */
  public record Tag(String kind, int level) {}

  static final ComponentType<Tag, ObjectStorage<Tag>> TAG = ComponentType.object(Tag.class);

  private static final String[] TEXTS = {"a", "b", "c"};

  private final List<Long> entities = new ArrayList<>();
  private final List<float[]> positions = new ArrayList<>();
  private final List<Integer> points = new ArrayList<>();
  private final List<Label.Color> colors = new ArrayList<>();
  private final List<Tag> tags = new ArrayList<>();
  private Registry registry;
  private long parent;

  @BeforeEach
  void build() {
    registry = new Registry();
    final Random random = new Random(3);
    final Hierarchy hierarchy = Hierarchy.of(registry);
    parent = registry.create();
    for (int i = 0; i < 4000; i++) {
      final long e = registry.create();
      entities.add(e);
      // The first two hold -0.0 and NaN: equality treats them as numbers do.
      final float x = 0 == i ? -0.0f : 1 == i ? Float.NaN : random.nextInt(100) - 50;
      final float y = random.nextInt(100) * 0.25f;
      registry.storage(Position_Traits.TYPE).emplace(e, x, y);
      positions.add(new float[] {x, y});
      final int p = random.nextInt(3) == 0 ? -1 : random.nextInt(20);
      if (p >= 0) {
        registry.storage(Health_Traits.TYPE).emplace(e, p);
      }
      points.add(p);
      final Label.Color color =
          random.nextInt(2) == 0 ? null : Label.Color.values()[random.nextInt(3)];
      if (null != color) {
        registry
            .storage(Label_Traits.TYPE)
            .emplace(e, new Label(TEXTS[random.nextInt(3)], color, i, null));
      }
      colors.add(color);
      final Tag tag =
          random.nextInt(2) == 0
              ? null
              : new Tag(0 == i % 11 ? null : TEXTS[random.nextInt(3)], i % 7);
      if (null != tag) {
        registry.storage(TAG).emplace(e, tag);
      }
      tags.add(tag);
      if (i % 10 == 0) {
        hierarchy.attach(e, parent);
        registry.storage(Frozen_Traits.TYPE).emplace(e);
      }
    }
  }

  private static String id(final long entity) {
    return Entity.index(entity) + ":" + Entity.version(entity);
  }

  /** Pages through the query 50 at a time and returns every entity found. */
  private static Set<String> all(final TestWorld world, final String params) {
    final Set<String> found = new TreeSet<>();
    JsonNode page = world.result("world.query", "{" + params + ", \"limit\": 50}");
    while (true) {
      page.get("entities").forEach(e -> found.add(e.asText()));
      if (page.get("next").isNull()) {
        return found;
      }
      page =
          world.result(
              "world.query",
              "{" + params + ", \"limit\": 50, \"cursor\": " + page.get("next").asInt() + "}");
    }
  }

  private Set<String> model(final LongPredicate test) {
    final Set<String> expected = new TreeSet<>();
    for (final long e : entities) {
      if (test.test(e)) {
        expected.add(id(e));
      }
    }
    return expected;
  }

  private int at(final long e) {
    return entities.indexOf(e);
  }

  @Test
  void fieldTestsMatchAModelOfTheValues() throws Exception {
    try (TestWorld world = new TestWorld(registry)) {
      final String before = world.dump();
      for (int v = 0; v < 21; v += 3) {
        final int wanted = v;
        assertEquals(
            model(e -> points.get(at(e)) == wanted),
            all(world, "\"where\": [{\"field\": \"Health.points\", \"eq\": " + v + "}]"),
            "points = " + v);
      }
      assertEquals(
          model(e -> positions.get(at(e))[0] >= -10 && positions.get(at(e))[0] <= 12.5),
          all(world, "\"where\": [{\"field\": \"Position.x\", \"min\": -10, \"max\": 12.5}]"));
      assertEquals(
          model(e -> points.get(at(e)) >= 5 && points.get(at(e)) <= 9),
          all(world, "\"where\": [{\"field\": \"Health.points\", \"min\": 5, \"max\": 9}]"));
      assertEquals(
          model(e -> positions.get(at(e))[0] == 0),
          all(world, "\"where\": [{\"field\": \"Position.x\", \"eq\": 0}]"));
      assertEquals(
          model(e -> Float.isNaN(positions.get(at(e))[0])),
          all(world, "\"where\": [{\"field\": \"Position.x\", \"eq\": \"NaN\"}]"));
      assertEquals(
          model(e -> positions.get(at(e))[1] == 3.25f),
          all(world, "\"where\": [{\"field\": \"Position.y\", \"eq\": 3.25}]"));
      assertEquals(
          model(e -> positions.get(at(e))[0] > 40 - 0.5),
          all(world, "\"where\": [{\"field\": \"Position.x\", \"min\": 39.5}]"));
      // Ranges and equality together, with with/without.
      assertEquals(
          model(
              e ->
                  positions.get(at(e))[1] <= 5
                      && points.get(at(e)) >= 10
                      && Label.Color.BLUE == colors.get(at(e))),
          all(
              world,
              "\"where\": [{\"field\": \"Position.y\", \"max\": 5},"
                  + " {\"field\": \"Health.points\", \"min\": 10},"
                  + " {\"field\": \"Label.color\", \"eq\": \"BLUE\"}]"));
      assertEquals(
          model(e -> Label.Color.RED == colors.get(at(e)) && points.get(at(e)) < 0),
          all(
              world,
              "\"where\": [{\"field\": \"Label.color\", \"eq\": \"RED\"}], \"without\":"
                  + " [\"Health\"]"));
      // An object storage's fields, through the record's accessors.
      assertEquals(
          model(e -> null != tags.get(at(e)) && "b".equals(tags.get(at(e)).kind())),
          all(world, "\"where\": [{\"field\": \"Tag.kind\", \"eq\": \"b\"}]"));
      assertEquals(
          model(e -> null != tags.get(at(e)) && null == tags.get(at(e)).kind()),
          all(world, "\"where\": [{\"field\": \"Tag.kind\", \"eq\": null}]"));
      assertEquals(
          model(e -> null != tags.get(at(e)) && tags.get(at(e)).level() <= 2),
          all(world, "\"where\": [{\"field\": \"Tag.level\", \"max\": 2}]"));
      // An entity reference: the hierarchy's parent links find a parent's children.
      assertEquals(
          model(e -> 0 == at(e) % 10),
          all(world, "\"where\": [{\"field\": \"Node.parent\", \"eq\": \"" + id(parent) + "\"}]"));
      assertEquals(before, world.dump());
      world.assertConsistent();
    }
  }

  /** A record whose accessor throws when {@link #FAIL} counts down to zero. */
  public record Flaky(int v) {
    static final AtomicInteger FAIL = new AtomicInteger(-1);

    /** {@return v, or throws when told to} */
    @Override
    public int v() {
      if (0 == FAIL.decrementAndGet()) {
        throw new IllegalStateException("injected");
      }
      return v;
    }
  }

  @Test
  void anAccessorThatThrowsAtAnyReadFailsTheCallAndChangesNothing() throws Exception {
    final ComponentType<Flaky, ObjectStorage<Flaky>> flaky = ComponentType.object(Flaky.class);
    for (int i = 0; i < 5; i++) {
      registry.storage(flaky).emplace(entities.get(i), new Flaky(i % 2));
    }
    try (TestWorld world = new TestWorld(registry)) {
      final String before = world.dump();
      final String query = "{\"where\": [{\"field\": \"Flaky.v\", \"eq\": 1}]}";
      Flaky.FAIL.set(-1);
      assertEquals(2, world.result("world.query", query).get("entities").size());
      for (int k = 1; k <= 5; k++) {
        Flaky.FAIL.set(k);
        final String message = world.error("world.query", query, RpcError.INTERNAL_ERROR);
        assertTrue(message.contains("Flaky.v() threw"), message);
        assertEquals(before, world.dump());
        world.assertConsistent();
      }
      Flaky.FAIL.set(-1);
    }
  }

  @Test
  void aCallScansAtMostItsBoundOfTests() throws Exception {
    final Registry big = new Registry();
    final Position_Storage storage = big.storage(Position_Traits.TYPE);
    for (int i = 0; i < Methods.MAX_SCAN + 10_000; i++) {
      storage.emplace(big.create(), i, 0);
    }
    try (TestWorld world = new TestWorld(big)) {
      final String test = "{\"field\": \"Position.y\", \"eq\": 1}";
      final JsonNode one = world.result("world.query", "{\"where\": [" + test + "]}");
      assertEquals(Methods.MAX_SCAN, one.get("scanned").asInt());
      final String eight = String.join(", ", Collections.nCopies(Methods.MAX_FILTERS, test));
      final JsonNode many = world.result("world.query", "{\"where\": [" + eight + "]}");
      final int bound = Methods.MAX_CHECKS / (1 + Methods.FILTER_COST * Methods.MAX_FILTERS);
      assertEquals(bound, many.get("scanned").asInt(), many::toString);
      assertEquals(bound, many.get("next").asInt());
      assertEquals(0, many.get("entities").size());
      final String nine = String.join(", ", Collections.nCopies(Methods.MAX_FILTERS + 1, test));
      final String message =
          world.error("world.query", "{\"where\": [" + nine + "]}", RpcError.INVALID_PARAMS);
      assertTrue(message.contains("at most " + Methods.MAX_FILTERS), message);
      world.assertConsistent();
    }
  }

  @Test
  void badTestsAreRefusedClearlyWithTheWorldUnchanged() throws Exception {
    try (TestWorld world = new TestWorld(registry)) {
      final String before = world.dump();
      final String[][] bad = {
        {"{\"field\": \"Nothing.x\", \"eq\": 1}", "no component \"Nothing\""},
        {
          "{\"field\": \"Position.z\", \"eq\": 1}",
          "has no field \"z\" to search; its fields: [x, y]"
        },
        {"{\"field\": \"Tag.colour\", \"eq\": 1}", "its fields: [kind, level]"},
        {"{\"field\": \"Frozen.x\", \"eq\": 1}", "(it has no fields)"},
        {"{\"field\": \"Position\", \"eq\": 1}", "must name a component's field"},
        {"{\"field\": 3, \"eq\": 1}", "must name a component's field"},
        {"{\"eq\": 1}", "must name a component's field"},
        {"{\"field\": \"Position.x\"}", "give eq, or min and max"},
        {"{\"field\": \"Position.x\", \"eq\": 1, \"min\": 0}", "not both"},
        {"{\"field\": \"Position.x\", \"eq\": \"one\"}", "field x of Position must be a float"},
        {"{\"field\": \"Health.points\", \"eq\": 1.5}", "must be an int"},
        {"{\"field\": \"Health.points\", \"eq\": 4294967296}", "in [-2147483648, 2147483647]"},
        {"{\"field\": \"Health.points\", \"eq\": null}", "cannot be null"},
        {"{\"field\": \"Label.color\", \"eq\": \"PINK\"}", "one of [RED, GREEN, BLUE]"},
        {"{\"field\": \"Label.color\", \"min\": 1}", "min and max apply to number fields only"},
        {"{\"field\": \"Label.text\", \"max\": 1}", "min and max apply to number fields only"},
        {"{\"field\": \"Position.x\", \"min\": \"0\"}", "min must be a number"},
        {"{\"field\": \"Position.x\", \"min\": 5, \"max\": 1}", "is above max"},
        {"{\"field\": \"Position.x\", \"eq\": 1, \"op\": \"<\"}", "has no key \"op\""},
        {"7", "where[0] must be an object"},
      };
      for (final String[] test : bad) {
        final String message =
            world.error("world.query", "{\"where\": [" + test[0] + "]}", RpcError.INVALID_PARAMS);
        assertTrue(message.contains(test[1]), () -> test[0] + ": " + message);
      }
      final String message =
          world.error("world.query", "{\"where\": {\"field\": \"x\"}}", RpcError.INVALID_PARAMS);
      assertTrue(message.contains("where must be an array"), message);
      final String body =
          "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.query\", \"params\": {\"where\":"
              + " []}}";
      assertEquals(401, world.post(body, null).statusCode());
      assertEquals(before, world.dump());
      world.assertConsistent();
    }
  }
}
