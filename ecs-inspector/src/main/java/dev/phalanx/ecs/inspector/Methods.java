package dev.phalanx.ecs.inspector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.EntityStorage;
import dev.phalanx.ecs.Group;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.View;
import dev.phalanx.ecs.VoidStorage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.relation.Relation;
import dev.phalanx.ecs.relation.RelationshipStorage;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.SystemFailedException;
import dev.phalanx.ecs.schedule.SystemTiming;
import dev.phalanx.ecs.snapshot.SnapshotDump;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * The protocol's methods, run on the game thread by {@link Inspector#serve()}: each checks its
 * parameters and everything it is about to change first, then changes the world, so that a refused
 * call leaves the world as it was. Field values are read through {@link SnapshotDump} (the same
 * column metadata as snapshots), written through {@link Codec.Builder}.
 *
 * <p>Not thread-safe: only the game thread calls it. Every method's work is bounded by the limits
 * below (entities listed, positions scanned), so one call costs at most about a millisecond or two
 * on a million-entity world.
 */
final class Methods {

  /** The most entities one query, watch or dump returns. */
  static final int MAX_LIMIT = 1000;

  /** The most positions one query call scans before it answers with a cursor to continue from. */
  static final int MAX_SCAN = 1 << 16;

  /**
   * The most membership tests one query call makes: a call scans {@code MAX_CHECKS / (1 + names)}
   * positions at most (and at most {@link #MAX_SCAN}), where {@code names} counts its {@code with}
   * and {@code without} components, so that its cost does not grow with the names it gives.
   */
  static final int MAX_CHECKS = 1 << 19;

  /** The most components one query names in {@code with} or in {@code without}. */
  static final int MAX_NAMES = 64;

  /** The most value tests ({@code where}) one query makes of each entity. */
  static final int MAX_FILTERS = 8;

  /**
   * What a value test costs, counted in membership tests: a field read through the column's pages
   * or an accessor, boxed, and compared.
   */
  static final int FILTER_COST = 4;

  /**
   * What a name lookup costs, counted in membership tests: the game's name function is user code,
   * of unknown cost, so a query by name scans at most {@code MAX_CHECKS / NAME_COST} positions.
   */
  static final int NAME_COST = 128;

  /** The longest name shown; a longer one is cut. */
  static final int MAX_NAME = 200;

  /** The most entities one watch call follows by value. */
  static final int MAX_WATCHED = 100;

  /** The longest a watch may wait for a change. */
  static final long MAX_WATCH_MILLIS = 30_000;

  /** The methods, with their parameters and a summary, as {@code rpc.discover} lists them. */
  static final List<String[]> METHODS =
      List.of(
          new String[] {"rpc.discover", "", "This list of methods, as an OpenRPC document."},
          new String[] {"world.stats", "", "Entity counts, storage and group counts, the tick."},
          new String[] {
            "world.list_components", "", "Component types with their fields and storage kinds."
          },
          new String[] {
            "world.list_storages", "", "Storages: kind, size, bytes (payload and packed array)."
          },
          new String[] {"world.list_groups", "", "Groups: kind, size, owned, get, excluded types."},
          new String[] {
            "world.list_views",
            "",
            "Views named at attach: included and excluded types, leader, size hint, size."
          },
          new String[] {
            "world.query",
            "with, without, where, name, cursor, limit, values",
            "Entities with every type of `with`, none of `without`, fields as `where` says and a"
                + " name containing `name`, a page at a time."
          },
          new String[] {
            "world.children",
            "parent, cursor, limit, relation",
            "The hierarchy's (or a relationship kind's) roots, or a parent's children (a target's"
                + " sources), a page at a time."
          },
          new String[] {
            "world.get_components", "entity, components", "An entity's components, with fields."
          },
          new String[] {
            "world.insert_components",
            "entity, components",
            "Adds components (field objects) to an entity that has none of them."
          },
          new String[] {
            "world.replace_components",
            "entity, components",
            "Replaces fields of components the entity has; fields not given keep their values."
          },
          new String[] {
            "world.remove_components", "entity, components", "Removes components the entity has."
          },
          new String[] {
            "world.spawn_entity", "components", "Creates an entity with the given components."
          },
          new String[] {
            "world.despawn_entity",
            "entity",
            "Destroys an entity, every descendant of it in the hierarchy, and the sources its"
                + " relationship kinds destroy with it."
          },
          new String[] {"world.system_timings", "", "Per-system timings of the attached schedule."},
          new String[] {
            "world.history",
            "",
            "The last minutes: entity counts and mean frame and system times, oldest first."
          },
          new String[] {
            "world.list_resources",
            "",
            "The context values named at attach: fields, values, whether the inspector may write."
          },
          new String[] {
            "world.set_resource",
            "resource, fields",
            "Replaces a writable resource with one built from its fields (others keep their"
                + " values)."
          },
          new String[] {
            "world.watch",
            "entities, digests, components, since, limit, timeout_ms",
            "What changed since the last call: watched entities by value, tracked types by tick."
          },
          new String[] {
            "schedule.plan",
            "",
            "The attached schedule's stages, waves and systems (sets, state, timing), its stepping."
          },
          new String[] {
            "schedule.pause", "", "Pauses the schedule: only always-run systems run. The plan."
          },
          new String[] {
            "schedule.resume", "", "Resumes the schedule: the frame's rest, then whole frames."
          },
          new String[] {
            "schedule.step_frame", "", "Has the next frame (or its rest) run, then stay paused."
          },
          new String[] {
            "schedule.step_system", "", "Has the next run run the next system only, then pause."
          },
          new String[] {
            "schedule.set_enabled",
            "system, enabled",
            "Enables or disables a system (a disabled one is skipped in every frame and step)."
          });

  private final Registry registry;
  private final History history;
  private final Schedule schedule;
  // The game's names of entities, or null: user code, called on the game thread.
  private final LongFunction<String> names;
  // The context values shown, in the order they were named, with whether they may be written.
  private final Map<Class<?>, Boolean> resources;
  private final Map<Class<?>, Codec.Builder> resourceCodecs = new HashMap<>();
  // The views named by the builder, in the order they were named.
  private final Map<String, View> views;
  private final List<String> viewNames;
  private final ObjectMapper json;
  private final JsonNodeFactory nodes = JsonNodeFactory.instance;
  // Builders per storage, made on first write or listing: reflection once per type.
  private final Map<Storage<?>, Codec.Builder> builders = new HashMap<>();
  private final MessageDigest sha256 = sha256();
  // The last failure of the attached schedule the game loop reported, until schedule.resume.
  private SystemFailedException failure;
  private long failures;

  Methods(final Registry registry, final Schedule schedule, final ObjectMapper json) {
    this(registry, schedule, Map.of(), null, Map.of(), json);
  }

  /** Methods that keep no history (tests). */
  Methods(
      final Registry registry,
      final Schedule schedule,
      final Map<String, View> views,
      final LongFunction<String> names,
      final Map<Class<?>, Boolean> resources,
      final ObjectMapper json) {
    this(
        registry,
        schedule,
        views,
        names,
        resources,
        new History(registry, schedule, 1_000_000_000L, 0, System.nanoTime()),
        json);
  }

  Methods(
      final Registry registry,
      final Schedule schedule,
      final Map<String, View> views,
      final LongFunction<String> names,
      final Map<Class<?>, Boolean> resources,
      final History history,
      final ObjectMapper json) {
    this.registry = registry;
    this.history = history;
    this.schedule = schedule;
    this.names = names;
    this.resources = new LinkedHashMap<>(resources);
    this.views = Map.copyOf(views);
    this.viewNames = List.copyOf(views.keySet());
    this.json = json;
  }

  /** Whether {@code method} exists. */
  static boolean exists(final String method) {
    for (final String[] m : METHODS) {
      if (m[0].equals(method)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Runs one call, or returns {@code null} for a watch that has nothing to report yet and may still
   * wait.
   */
  JsonNode run(final String method, final ObjectNode params, final boolean mayWait) {
    return switch (method) {
      case "rpc.discover" -> discover(params);
      case "world.stats" -> stats(params);
      case "world.list_components" -> listComponents(params);
      case "world.list_storages" -> listStorages(params);
      case "world.list_groups" -> listGroups(params);
      case "world.list_views" -> listViews(params);
      case "world.query" -> query(params);
      case "world.children" -> children(params);
      case "world.get_components" -> getComponents(params);
      case "world.insert_components" -> insert(params);
      case "world.replace_components" -> replace(params);
      case "world.remove_components" -> remove(params);
      case "world.spawn_entity" -> spawn(params);
      case "world.despawn_entity" -> despawn(params);
      case "world.system_timings" -> timings(params);
      case "world.history" -> history(params);
      case "world.list_resources" -> listResources(params);
      case "world.set_resource" -> setResource(params);
      case "world.watch" -> watch(params, mayWait);
      case "schedule.plan" -> plan(params);
      case "schedule.pause" -> control(params, "schedule.pause", Schedule::pause);
      case "schedule.resume" -> control(params, "schedule.resume", this::resume);
      case "schedule.step_frame" -> control(params, "schedule.step_frame", Schedule::stepFrame);
      case "schedule.step_system" -> control(params, "schedule.step_system", Schedule::stepSystem);
      case "schedule.set_enabled" -> setEnabled(params);
      default -> throw new RpcError(RpcError.METHOD_NOT_FOUND, "no method " + method);
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Reading.
  // ---------------------------------------------------------------------------------------------

  private JsonNode discover(final ObjectNode params) {
    allow(params, "rpc.discover");
    final ObjectNode result = nodes.objectNode();
    result.put("openrpc", "1.3.2");
    result.putObject("info").put("title", "Phalanx inspector").put("version", "0.1.0");
    final ArrayNode methods = result.putArray("methods");
    for (final String[] m : METHODS) {
      final ObjectNode method = methods.addObject().put("name", m[0]).put("summary", m[2]);
      final ArrayNode list = method.putArray("params");
      final java.util.Scanner names = new java.util.Scanner(m[1]).useDelimiter(", ");
      while (names.hasNext()) {
        list.addObject().put("name", names.next());
      }
    }
    return result;
  }

  private JsonNode stats(final ObjectNode params) {
    allow(params, "world.stats");
    final ObjectNode result = nodes.objectNode();
    result.put("alive", registry.alive());
    result.put("released", registry.entities().size() - registry.alive());
    result.put("storages", registry.storageCount());
    result.put("groups", registry.groups().size());
    long bytes = 0;
    for (int i = 0; i < registry.storageCount(); i++) {
      bytes += bytes(registry.storageAt(i));
    }
    result.put("bytes", bytes);
    result.put("tick", registry.changeTick());
    if (null != schedule) {
      result.put("frame", schedule.frame());
    }
    putFailure(result);
    return result;
  }

  /** Records a failure of the attached schedule and pauses it (see Inspector#systemFailed). */
  void systemFailed(final SystemFailedException failed) {
    failure = failed;
    failures++;
    if (null != schedule && !schedule.isPaused()) {
      schedule.pause();
    }
  }

  /** Puts the last reported failure, or null, and the count of failures reported. */
  private void putFailure(final ObjectNode result) {
    result.put("failures", failures);
    if (null == failure) {
      result.putNull("failure");
      return;
    }
    result
        .putObject("failure")
        .put("system", failure.system())
        .put("stage", failure.stage())
        .put("frame", failure.frame())
        .put("message", failure.getMessage());
  }

  private JsonNode listComponents(final ObjectNode params) {
    allow(params, "world.list_components");
    final ArrayNode result = nodes.arrayNode();
    final JsonNode fields = dumpHeader();
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      final ObjectNode type = result.addObject();
      type.put("name", storage.type().name());
      type.put("key", key(storage));
      type.put("kind", kind(storage));
      type.put("tracked", storage.isTracked());
      type.put("writable", builder(storage).writable());
      type.put("internal", builder(storage).internal);
      putEnums(type, builder(storage));
      final ArrayNode editable = type.putArray("editable");
      builder(storage).editable().forEach(editable::add);
      type.set("fields", fields.get(i).get("fields"));
      type.set("relationship", relationship(storage));
    }
    return result;
  }

  private JsonNode listStorages(final ObjectNode params) {
    allow(params, "world.list_storages");
    final ArrayNode result = nodes.arrayNode();
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      result
          .addObject()
          .put("name", storage.type().name())
          .put("key", key(storage))
          .put("kind", kind(storage))
          .put("size", storage.size())
          .put("bytes", bytes(storage))
          .put("tracked", storage.isTracked())
          .put("pageSize", storage.pageSize())
          .put("policy", storage.policy().name())
          .put("owner", null == storage.owner() ? null : describe(storage.owner()));
    }
    return result;
  }

  private JsonNode listGroups(final ObjectNode params) {
    allow(params, "world.list_groups");
    final ArrayNode result = nodes.arrayNode();
    for (int i = 0; i < registry.groups().size(); i++) {
      final Group group = registry.groups().get(i);
      final ObjectNode node = result.addObject();
      node.put("name", describe(group));
      node.put("kind", groupKind(group));
      node.put("size", group.size());
      final ArrayNode owned = node.putArray("owned");
      for (int n = 0; n < group.ownedCount(); n++) {
        owned.add(group.owned(n).type().name());
      }
      final ArrayNode get = node.putArray("get");
      for (int n = 0; n < group.getCount(); n++) {
        get.add(group.get(n).type().name());
      }
      final ArrayNode exclude = node.putArray("exclude");
      for (int n = 0; n < group.excludeCount(); n++) {
        exclude.add(group.exclude(n).type().name());
      }
    }
    return result;
  }

  /**
   * The named views: their sets, the set an iteration would walk and its size (an upper bound), and
   * the exact number of matching entities when the leader holds at most {@link #MAX_SCAN} elements
   * ({@code null} above that, so that a call stays within its bound).
   */
  private JsonNode listViews(final ObjectNode params) {
    allow(params, "world.list_views");
    final ArrayNode result = nodes.arrayNode();
    for (final String name : viewNames) {
      final View view = views.get(name);
      final ObjectNode node = result.addObject();
      node.put("name", name);
      final ArrayNode include = node.putArray("include");
      for (int n = 0; n < view.includeCount(); n++) {
        include.add(setName(view.include(n)));
      }
      final ArrayNode exclude = node.putArray("exclude");
      for (int n = 0; n < view.excludeCount(); n++) {
        exclude.add(setName(view.exclude(n)));
      }
      final SparseSet leader = view.leader();
      node.put("leader", setName(leader));
      node.put("sizeHint", view.sizeHint());
      if (leader.size() <= MAX_SCAN) {
        final int[] count = {0};
        view.each(entity -> count[0]++);
        node.put("size", count[0]);
      } else {
        node.putNull("size");
      }
    }
    return result;
  }

  private static String setName(final SparseSet set) {
    return set instanceof Storage<?> storage ? storage.type().name() : set.describe();
  }

  private JsonNode query(final ObjectNode params) {
    allow(params, "world.query", "with", "without", "where", "name", "cursor", "limit", "values");
    final List<Storage<?>> with = storages(params.get("with"), "with");
    final List<Storage<?>> without = storages(params.get("without"), "without");
    final List<Filter> where = filters(params.get("where"));
    final String name = nameParam(params.get("name"));
    final int limit = intParam(params, "limit", 100, 1, MAX_LIMIT);
    final int cursor = intParam(params, "cursor", 0, 0, Integer.MAX_VALUE);
    final boolean values = boolParam(params, "values", false);
    // The smallest included set leads (a tested field's storage is included); with none, the
    // entity storage's live entities do.
    SparseSet lead = null;
    for (final Storage<?> storage : with) {
      lead = null == lead || storage.size() < lead.size() ? storage : lead;
    }
    for (final Filter filter : where) {
      lead = null == lead || filter.storage.size() < lead.size() ? filter.storage : lead;
    }
    final EntityStorage entities = registry.entities();
    final int size = null == lead ? entities.alive() : lead.size();
    final long[] packed = null == lead ? entities.packed() : null;
    final long[] found = new long[limit];
    int count = 0;
    int position = Math.min(cursor, size);
    final int checks =
        1
            + with.size()
            + without.size()
            + FILTER_COST * where.size()
            + (null == name ? 0 : NAME_COST);
    final int scan = Math.min(MAX_SCAN, MAX_CHECKS / checks);
    final int end = (int) Math.min(size, (long) position + scan);
    // The bound is re-read each step: a name function that changed the world (it must not) cannot
    // send the scan past the lead's end.
    for (; position < end && count < limit && position < leadSize(lead); position++) {
      final long entity = null == lead ? packed[position] : lead.at(position);
      if (matches(entity, with, without) && passes(entity, where) && named(entity, name)) {
        found[count++] = entity;
      }
    }
    final ObjectNode result = nodes.objectNode();
    result.put("lead", null == lead ? "entities" : ((Storage<?>) lead).type().name());
    result.put("size", size);
    result.put("scanned", position - Math.min(cursor, size));
    if (position < size) {
      result.put("next", position);
    } else {
      result.putNull("next");
    }
    final ArrayNode list = result.putArray("entities");
    final long[] page = java.util.Arrays.copyOf(found, count);
    putNames(result, page);
    if (values) {
      result.remove("entities");
      result.putRawValue("entities", new RawValue(rawEntities(page)));
    } else {
      for (int i = 0; i < count; i++) {
        list.add(Codec.entity(page[i]));
      }
    }
    return result;
  }

  private int leadSize(final SparseSet lead) {
    return null == lead ? registry.entities().alive() : lead.size();
  }

  /** Parses {@code where}: absent or null for no test, else an array of tests. */
  private List<Filter> filters(final JsonNode where) {
    final List<Filter> filters = new ArrayList<>();
    if (null == where || where.isNull()) {
      return filters;
    }
    if (!where.isArray()) {
      throw RpcError.params(
          "where must be an array of tests like {\"field\": \"Health.points\", \"eq\": 100}, got "
              + Codec.kind(where));
    }
    if (where.size() > MAX_FILTERS) {
      throw RpcError.params("where has " + where.size() + " tests; at most " + MAX_FILTERS);
    }
    for (final JsonNode spec : where) {
      filters.add(Filter.parse(spec, "where[" + filters.size() + "]", this));
    }
    return filters;
  }

  private static boolean passes(final long entity, final List<Filter> where) {
    for (final Filter filter : where) {
      if (!filter.test(entity)) {
        return false;
      }
    }
    return true;
  }

  /** Parses {@code name}: absent or null for none; needs the game's names. */
  private String nameParam(final JsonNode name) {
    if (null == name || name.isNull()) {
      return null;
    }
    if (!name.isTextual() || name.textValue().isEmpty() || name.textValue().length() > MAX_NAME) {
      throw RpcError.params(
          "name must be a string of 1 to " + MAX_NAME + " characters, got " + Codec.kind(name));
    }
    if (null == names) {
      throw RpcError.params(
          "name: entities have no names here (the game gives them with"
              + " Inspector.builder(registry).names(entity -> ...))");
    }
    return name.textValue();
  }

  /** Whether the entity's name contains {@code part}, ignoring case; a null part: any. */
  private boolean named(final long entity, final String part) {
    if (null == part) {
      return true;
    }
    final String name = name(entity);
    if (null == name) {
      return false;
    }
    for (int at = 0; at + part.length() <= name.length(); at++) {
      if (name.regionMatches(true, at, part, 0, part.length())) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@return the game's name of {@code entity}, cut to {@link #MAX_NAME} characters, or null} A
   * name function that throws, or returns null or an empty name, gives no name: the inspector shows
   * the handle alone and goes on.
   */
  String name(final long entity) {
    if (null == names) {
      return null;
    }
    final String name;
    try {
      name = names.apply(entity);
    } catch (final RuntimeException e) {
      return null;
    }
    if (null == name || name.isEmpty()) {
      return null;
    }
    return name.length() <= MAX_NAME ? name : name.substring(0, MAX_NAME);
  }

  /** Puts {@code names}, the names of the entities of {@code page} that have one, if any can. */
  private void putNames(final ObjectNode result, final long[] page) {
    if (null == names) {
      return;
    }
    final ObjectNode named = result.putObject("names");
    for (final long entity : page) {
      final String name = name(entity);
      if (null != name) {
        named.put(Codec.entity(entity), name);
      }
    }
  }

  /**
   * The hierarchy a page at a time: without {@code parent}, the roots (live entities without a
   * parent), scanned from position {@code cursor} of the live entities, at most {@link #MAX_SCAN}
   * positions a call; with one, its children from the child {@code cursor} names (a handle, as
   * {@code next} gave it), in the hierarchy's order. Each entity comes with its name and its number
   * of children, so that a tree knows which nodes open.
   */
  private JsonNode children(final ObjectNode params) {
    allow(params, "world.children", "parent", "cursor", "limit", "relation");
    if (params.hasNonNull("relation")) {
      return relationTree(params);
    }
    final int limit = intParam(params, "limit", 100, 1, MAX_LIMIT);
    final Hierarchy hierarchy = registry.context().find(Hierarchy.class);
    final ObjectNode result = nodes.objectNode();
    final ArrayNode list = nodes.arrayNode();
    final JsonNode parentNode = params.get("parent");
    if (null == parentNode || parentNode.isNull()) {
      final int cursor = intParam(params, "cursor", 0, 0, Integer.MAX_VALUE);
      final EntityStorage entities = registry.entities();
      final int size = entities.alive();
      final long[] packed = entities.packed();
      int position = Math.min(cursor, size);
      final int end = (int) Math.min(size, (long) position + MAX_SCAN);
      for (; position < end && list.size() < limit; position++) {
        final long entity = packed[position];
        if (null == hierarchy || Entity.isNull(hierarchy.parent(entity))) {
          list.add(treeNode(entity, hierarchy));
        }
      }
      rootsPage(result, size, cursor, position);
    } else {
      final long parent = alive(parentNode, "parent");
      long child = null == hierarchy ? Entity.NULL : hierarchy.firstChild(parent);
      final JsonNode cursor = params.get("cursor");
      if (null != cursor && !cursor.isNull()) {
        child = Codec.parseEntity(cursor, "cursor");
        if (!registry.valid(child) || null == hierarchy || hierarchy.parent(child) != parent) {
          throw RpcError.params(
              "cursor "
                  + Codec.entity(child)
                  + " is not a child of "
                  + Codec.entity(parent)
                  + " (the hierarchy changed since: list its children from the start)");
        }
      }
      for (; !Entity.isNull(child) && list.size() < limit; child = hierarchy.nextSibling(child)) {
        list.add(treeNode(child, hierarchy));
      }
      result.put("parent", Codec.entity(parent));
      result.put("size", null == hierarchy ? 0 : hierarchy.childCount(parent));
      if (Entity.isNull(child)) {
        result.putNull("next");
      } else {
        result.put("next", Codec.entity(child));
      }
    }
    result.set("entities", list);
    return result;
  }

  /** An entity of a tree page: {@code {entity, name, children}}. */
  private ObjectNode treeNode(final long entity, final Hierarchy hierarchy) {
    final ObjectNode node = nodes.objectNode();
    node.put("entity", Codec.entity(entity));
    node.put("name", name(entity));
    node.put("children", null == hierarchy ? 0 : hierarchy.childCount(entity));
    return node;
  }

  // ---------------------------------------------------------------------------------------------
  // Relationship kinds: read through each kind's Relation.
  // ---------------------------------------------------------------------------------------------

  /** {@return the relation of {@code storage}'s kind, or null if it holds no relationship kind} */
  private static Relation<?> relationOf(final Storage<?> storage) {
    return storage instanceof RelationshipStorage<?> kind ? kind.relation() : null;
  }

  /** {@return a relationship kind's policies, {@code {onTargetDestroyed, acyclic}}, or null} */
  private JsonNode relationship(final Storage<?> storage) {
    if (!(storage instanceof RelationshipStorage<?> kind)) {
      return NullNode.getInstance();
    }
    final ObjectNode node = nodes.objectNode();
    node.put("onTargetDestroyed", kind.onTargetDestroyed().name());
    node.put("acyclic", kind.acyclic());
    return node;
  }

  /** {@return the relation of the kind {@code name} names; refuses any other component} */
  private Relation<?> relation(final JsonNode name) {
    if (!name.isTextual()) {
      throw RpcError.params(
          "relation must be the name of a relationship kind, got " + Codec.kind(name));
    }
    final Storage<?> storage = storage(name.textValue());
    final Relation<?> relation = relationOf(storage);
    if (null == relation) {
      throw RpcError.params(
          "relation "
              + storage.type().name()
              + " is not a relationship kind (a @Component declared with @Relationship);"
              + " world.list_components marks them");
    }
    return relation;
  }

  /**
   * One relationship kind as a forest, a page at a time, shaped as the hierarchy's: without {@code
   * parent}, its roots (targets that are no source of the kind), each found at its first source
   * while the kind's storage is scanned from position {@code cursor}, at most {@link #MAX_SCAN}
   * positions a call; with one, its sources from the source {@code cursor} names, in link order.
   * Each entity comes with its name and its number of sources. Entities on a cycle (of a kind that
   * allows them) have no root to be reached from.
   */
  private JsonNode relationTree(final ObjectNode params) {
    final Relation<?> relation = relation(params.get("relation"));
    final int limit = intParam(params, "limit", 100, 1, MAX_LIMIT);
    final JsonNode parent = params.get("parent");
    final ObjectNode result =
        null == parent || parent.isNull()
            ? relationRoots(relation, intParam(params, "cursor", 0, 0, Integer.MAX_VALUE), limit)
            : relationSources(relation, alive(parent, "parent"), params.get("cursor"), limit);
    result.put("relation", relation.storage().type().name());
    return result;
  }

  private ObjectNode relationRoots(final Relation<?> relation, final int cursor, final int limit) {
    final RelationshipStorage<?> sources = relation.storage();
    final int size = sources.size();
    final long[] packed = sources.packed();
    final ArrayNode list = nodes.arrayNode();
    int position = Math.min(cursor, size);
    final int end = (int) Math.min(size, (long) position + MAX_SCAN);
    for (; position < end && list.size() < limit; position++) {
      final long source = packed[position];
      if (!Entity.isTombstone(source)) {
        final long target = relation.target(source);
        if (relation.firstSource(target) == source && Entity.isNull(relation.target(target))) {
          list.add(relationNode(relation, target));
        }
      }
    }
    final ObjectNode result = nodes.objectNode();
    rootsPage(result, size, cursor, position);
    result.set("entities", list);
    return result;
  }

  private ObjectNode relationSources(
      final Relation<?> relation, final long target, final JsonNode cursor, final int limit) {
    long source = relation.firstSource(target);
    if (null != cursor && !cursor.isNull()) {
      source = Codec.parseEntity(cursor, "cursor");
      if (!registry.valid(source) || relation.target(source) != target) {
        throw RpcError.params(
            "cursor "
                + Codec.entity(source)
                + " is not a source of "
                + Codec.entity(target)
                + " in "
                + relation.storage().type().name()
                + " (the relationship changed since: list its sources from the start)");
      }
    }
    final ArrayNode list = nodes.arrayNode();
    for (; !Entity.isNull(source) && list.size() < limit; source = relation.nextSource(source)) {
      list.add(relationNode(relation, source));
    }
    final ObjectNode result = nodes.objectNode();
    result.put("parent", Codec.entity(target));
    result.put("size", relation.sourceCount(target));
    if (Entity.isNull(source)) {
      result.putNull("next");
    } else {
      result.put("next", Codec.entity(source));
    }
    result.set("entities", list);
    return result;
  }

  /**
   * Refuses, changing nothing, a relationship value of {@code values} whose target {@code source}
   * may not name: a target that is not live, or, in an acyclic kind, one whose chain of the kind
   * comes back to {@code source} ({@link Entity#NULL} for an entity being spawned, on no chain).
   * The relation refuses the same values when a storage writes them; the change set the writes go
   * through does not ask it, so the inspector does, in the relation's words.
   */
  private void checkTargets(final long source, final Map<Storage<?>, Object> values) {
    for (final Map.Entry<Storage<?>, Object> entry : values.entrySet()) {
      if (entry.getKey() instanceof RelationshipStorage<?> kind) {
        final Object target = builder(kind).values(entry.getValue()).get(targetField(kind));
        checkTarget(kind, source, (Long) target);
      }
    }
  }

  private void checkTarget(
      final RelationshipStorage<?> kind, final long source, final long target) {
    final String refused =
        "the world refused the change: cannot write "
            + kind.type().name()
            + (Entity.isNull(source) ? " on a new entity" : " on " + Codec.entity(source));
    if (!registry.valid(target)) {
      throw RpcError.params(
          refused
              + ": its target "
              + Codec.entity(target)
              + " is not a live entity; a relationship names a live target");
    }
    final Relation<?> relation = kind.relation();
    long step = target;
    for (int hops = 0; kind.acyclic() && hops <= relation.size() && !Entity.isNull(step); hops++) {
      if (step == source) {
        throw RpcError.params(
            refused
                + " naming "
                + Codec.entity(target)
                + ": the chain from the target comes back to "
                + Codec.entity(source)
                + ", and the kind is acyclic (@Relationship(acyclic = true))");
      }
      step = relation.target(step);
    }
  }

  /**
   * Writes the paging fields of a page of roots (no parent): the entities scanned from {@code
   * cursor} up to {@code position} of {@code size}, and where the next page starts ({@code null} at
   * the end).
   */
  private static void rootsPage(
      final ObjectNode result, final int size, final int cursor, final int position) {
    result.putNull("parent");
    result.put("size", size);
    result.put("scanned", position - Math.min(cursor, size));
    if (position < size) {
      result.put("next", position);
    } else {
      result.putNull("next");
    }
  }

  /** {@return the name of the field of {@code kind} that holds the target, its one entity ref} */
  private static String targetField(final RelationshipStorage<?> kind) {
    final String[] found = new String[1];
    kind.columns(
        new ColumnVisitor() {
          @Override
          public void column(
              final String name,
              final Class<?> type,
              final boolean entityRef,
              final Object[] pages) {
            if (entityRef) {
              found[0] = name;
            }
          }
        });
    return found[0];
  }

  /** An entity of a relationship tree's page: {@code {entity, name, children}}. */
  private ObjectNode relationNode(final Relation<?> relation, final long entity) {
    final ObjectNode node = nodes.objectNode();
    node.put("entity", Codec.entity(entity));
    node.put("name", name(entity));
    node.put("children", relation.sourceCount(entity));
    return node;
  }

  /**
   * {@return {@code entity}'s relationships: per kind in which it is a source or a target, {@code
   * {target, sources, onTargetDestroyed}}} O(storages).
   */
  private ObjectNode relationships(final long entity) {
    final ObjectNode result = nodes.objectNode();
    for (int i = 0; i < registry.storageCount(); i++) {
      final Relation<?> relation = relationOf(registry.storageAt(i));
      if (null == relation) {
        continue;
      }
      final long target = relation.target(entity);
      final int sources = relation.sourceCount(entity);
      if (!Entity.isNull(target) || 0 != sources) {
        final ObjectNode kind = result.putObject(relation.storage().type().name());
        kind.put("target", Entity.isNull(target) ? null : Codec.entity(target));
        kind.put("sources", sources);
        kind.put("onTargetDestroyed", relation.onTargetDestroyed().name());
      }
    }
    return result;
  }

  private boolean matches(
      final long entity, final List<Storage<?>> with, final List<Storage<?>> without) {
    if (!registry.valid(entity)) {
      return false; // a tombstone of an in-place storage
    }
    for (final Storage<?> storage : with) {
      if (!storage.contains(entity)) {
        return false;
      }
    }
    for (final Storage<?> storage : without) {
      if (storage.contains(entity)) {
        return false;
      }
    }
    return true;
  }

  private JsonNode getComponents(final ObjectNode params) {
    allow(params, "world.get_components", "entity", "components");
    final long entity = alive(params.get("entity"), "entity");
    final List<Storage<?>> only =
        params.hasNonNull("components") ? storages(params.get("components"), "components") : null;
    final ObjectNode result = entityNode(dump(new long[] {entity}).get("components").get(0));
    result.put("descendants", descendants(entity));
    final Hierarchy hierarchy = registry.context().find(Hierarchy.class);
    final long parent = null == hierarchy ? Entity.NULL : hierarchy.parent(entity);
    result.put("parent", Entity.isNull(parent) ? null : Codec.entity(parent));
    result.put("children", null == hierarchy ? 0 : hierarchy.childCount(entity));
    result.set("relationships", relationships(entity));
    result.put("name", name(entity));
    if (null != only) {
      final ObjectNode components = (ObjectNode) result.get("components");
      final Set<String> keep = new HashSet<>();
      for (final Storage<?> storage : only) {
        keep.add(storage.type().name());
      }
      components.retain(keep);
    }
    return result;
  }

  /** An entity of the dump as the protocol gives it: {@code {entity, components, digest}}. */
  private ObjectNode entityNode(final JsonNode dumped) {
    return entityNode(dumped, true);
  }

  private ObjectNode entityNode(final JsonNode dumped, final boolean withDigest) {
    final ObjectNode node = nodes.objectNode();
    node.set("entity", dumped.get("entity"));
    final ObjectNode components = node.putObject("components");
    for (final Map.Entry<String, JsonNode> field : dumped.properties()) {
      if (!"entity".equals(field.getKey())) {
        components.set(field.getKey(), field.getValue());
      }
    }
    if (withDigest) {
      node.put("digest", digest(components));
    }
    return node;
  }

  // ---------------------------------------------------------------------------------------------
  // Writing: everything is checked and built first, then applied.
  // ---------------------------------------------------------------------------------------------

  private JsonNode insert(final ObjectNode params) {
    allow(params, "world.insert_components", "entity", "components");
    final long entity = alive(params.get("entity"), "entity");
    final Map<Storage<?>, Object> values = build(params.get("components"), entity, false);
    for (final Storage<?> storage : values.keySet()) {
      if (storage.contains(entity)) {
        throw RpcError.params(
            "entity "
                + Codec.entity(entity)
                + " already has a "
                + storage.type().name()
                + ": use world.replace_components");
      }
    }
    checkTargets(entity, values);
    apply(entity, values, false);
    return result(entity);
  }

  private JsonNode replace(final ObjectNode params) {
    allow(params, "world.replace_components", "entity", "components");
    final long entity = alive(params.get("entity"), "entity");
    final Map<Storage<?>, Object> values = build(params.get("components"), entity, true);
    checkTargets(entity, values);
    apply(entity, values, true);
    return result(entity);
  }

  private JsonNode remove(final ObjectNode params) {
    allow(params, "world.remove_components", "entity", "components");
    final long entity = alive(params.get("entity"), "entity");
    final List<Storage<?>> storages = storages(params.get("components"), "components");
    if (storages.isEmpty()) {
      throw RpcError.params("components must name at least one component to remove");
    }
    for (final Storage<?> storage : storages) {
      builder(storage).checkChangeable();
      if (!storage.contains(entity)) {
        throw RpcError.params(
            "entity " + Codec.entity(entity) + " has no " + storage.type().name() + " to remove");
      }
    }
    final ChangeSet changes = new ChangeSet(registry);
    for (final Storage<?> storage : storages) {
      changes.remove(entity, storage.type());
    }
    commit(changes);
    return result(entity);
  }

  private JsonNode spawn(final ObjectNode params) {
    allow(params, "world.spawn_entity", "components");
    final JsonNode components = params.get("components");
    final Map<Storage<?>, Object> values =
        null == components || components.isNull()
            ? new LinkedHashMap<>()
            : build(components, -1L, false);
    checkTargets(Entity.NULL, values);
    final ChangeSet changes = new ChangeSet(registry);
    final long staged = changes.create();
    stage(changes, staged, values, false);
    commit(changes);
    return result(changes.entityOf(staged));
  }

  /**
   * Destroys the entity, and with the hierarchy's {@link Hierarchy#destroyTree} every descendant:
   * children left behind as roots would break what systems expect of them (as in flecs and Bevy,
   * despawning a parent despawns its children). The destroy applies each relationship kind's policy
   * to the entity's sources, as any destroy does: linked destroys, removals, or a refusal. The
   * runtime checks every entity first and changes nothing when it refuses. Answers how many
   * entities the call destroyed, counted as the registry announces each.
   */
  private JsonNode despawn(final ObjectNode params) {
    allow(params, "world.despawn_entity", "entity");
    final long entity = alive(params.get("entity"), "entity");
    final DestroyCount destroyed = new DestroyCount();
    registry.onDestroy().connect(destroyed);
    try {
      destroy(entity);
    } finally {
      registry.onDestroy().disconnect(destroyed);
    }
    final ObjectNode result = nodes.objectNode();
    result.put("entity", Codec.entity(entity));
    result.put("destroyed", destroyed.count);
    result.put("alive", registry.alive());
    return result;
  }

  /** Counts the entities the registry announces destroyed while it is connected. */
  private static final class DestroyCount implements ComponentListener {
    int count;

    @Override
    public void onEvent(final Registry owner, final long entity) {
      count++;
    }
  }

  /**
   * Destroys {@code entity} with its descendants in the hierarchy, through the registry, whose
   * destroy checks (a relationship kind that refuses) run before anything changes; see {@link
   * #despawn}.
   */
  private void destroy(final long entity) {
    try {
      if (descendants(entity) > 0) {
        registry.context().find(Hierarchy.class).destroyTree(entity);
      } else {
        registry.destroy(entity);
      }
    } catch (final RuntimeException e) {
      if (registry.valid(entity)) {
        throw new RpcError(RpcError.REFUSED, "the world refused the change: " + e.getMessage());
      }
      throw new RpcError(
          RpcError.REFUSED, "the change was made, but a listener threw: " + e.getMessage());
    }
  }

  /** {@return the number of descendants of {@code entity} in the hierarchy, if there is one} */
  private int descendants(final long entity) {
    final Hierarchy hierarchy = registry.context().find(Hierarchy.class);
    if (null == hierarchy || 0 == hierarchy.childCount(entity)) {
      return 0;
    }
    final int[] count = {-1}; // the walk visits the entity itself
    hierarchy.depthFirst(entity, descendant -> count[0]++);
    return count[0];
  }

  private JsonNode result(final long entity) {
    return entityNode(dump(new long[] {entity}).get("components").get(0));
  }

  /**
   * Builds every component of {@code components} ({@code {"Name": {fields}}}): for a replacement,
   * fields not given keep the entity's values. Changes nothing.
   */
  private Map<Storage<?>, Object> build(
      final JsonNode components, final long entity, final boolean replacing) {
    if (null == components || !components.isObject()) {
      throw RpcError.params(
          "components must be an object of components by name, like {\"Position\": {\"x\": 1}},"
              + " got "
              + (null == components ? "nothing" : Codec.kind(components)));
    }
    if (components.isEmpty()) {
      throw RpcError.params("components names no component");
    }
    final Map<Storage<?>, Object> values = new LinkedHashMap<>();
    for (final Map.Entry<String, JsonNode> entry : components.properties()) {
      final Storage<?> storage = storage(entry.getKey());
      if (values.containsKey(storage)) {
        throw RpcError.params("component " + entry.getKey() + " is named twice");
      }
      Object current = null;
      if (replacing) {
        if (!storage.contains(entity)) {
          throw RpcError.params(
              "entity "
                  + Codec.entity(entity)
                  + " has no "
                  + storage.type().name()
                  + " to replace: use world.insert_components");
        }
        current = storage instanceof EmptyStorage<?> ? null : storage.get(entity);
      }
      values.put(storage, builder(storage).build(entry.getValue(), current));
    }
    return values;
  }

  private void apply(final long entity, final Map<Storage<?>, Object> values, final boolean swap) {
    final ChangeSet changes = new ChangeSet(registry);
    stage(changes, entity, values, swap);
    commit(changes);
  }

  /** Stages every value of {@code values} on {@code entity}, as insertions or replacements. */
  private static void stage(
      final ChangeSet changes,
      final long entity,
      final Map<Storage<?>, Object> values,
      final boolean replacing) {
    for (final Map.Entry<Storage<?>, Object> entry : values.entrySet()) {
      stage(changes, entry.getKey().type(), entity, entry.getValue(), replacing);
    }
  }

  private static <T> void stage(
      final ChangeSet changes,
      final ComponentType<T, ?> type,
      final long entity,
      final Object value,
      final boolean replacing) {
    if (type.traits().empty()) {
      if (!replacing) {
        changes.emplace(entity, type);
      }
      return;
    }
    final T typed = type.javaClass().cast(value);
    if (replacing) {
      changes.replace(entity, type, typed);
    } else {
      changes.emplace(entity, type, typed);
    }
  }

  /**
   * Commits a call's changes as one: a refusal (nothing changed) becomes a protocol error with the
   * runtime's message, -32602 if the runtime refused a value as invalid ({@link
   * IllegalArgumentException}: a relationship's dead target, a cycle of an acyclic kind); a
   * listener's exception, thrown once every change is made, too, saying so.
   */
  private static void commit(final ChangeSet changes) {
    try {
      changes.commit();
    } catch (final RuntimeException e) {
      if (changes.isEmpty()) {
        throw new RpcError(
            RpcError.REFUSED, "the change was made, but a listener threw: " + e.getMessage());
      }
      changes.clear();
      throw new RpcError(
          e instanceof IllegalArgumentException ? RpcError.INVALID_PARAMS : RpcError.REFUSED,
          "the world refused the change: " + e.getMessage());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Resources: context values named at attach.
  // ---------------------------------------------------------------------------------------------

  private JsonNode listResources(final ObjectNode params) {
    allow(params, "world.list_resources");
    final ArrayNode result = nodes.arrayNode();
    for (final Class<?> type : resources.keySet()) {
      result.add(resourceNode(type));
    }
    return result;
  }

  /**
   * A resource as the protocol gives it: {@code name}, {@code key}, {@code present}, {@code
   * writable}, {@code fields} (name to type), {@code editable}, {@code enums} and {@code values}.
   */
  private ObjectNode resourceNode(final Class<?> type) {
    final Codec.Builder codec = resourceCodec(type);
    final ObjectNode node = nodes.objectNode();
    node.put("name", type.getSimpleName());
    node.put("key", type.getName());
    final Object value = registry.context().find(type);
    node.put("present", null != value);
    node.put("writable", writable(type));
    final ObjectNode fields = node.putObject("fields");
    for (int i = 0; i < codec.names.size(); i++) {
      final Class<?> field = codec.types.get(i);
      fields.put(codec.names.get(i), field.getName());
    }
    final ArrayNode editable = node.putArray("editable");
    if (writable(type)) {
      codec.editable().forEach(editable::add);
    }
    putEnums(node, codec);
    final ObjectNode values = node.putObject("values");
    if (null != value) {
      codec.values(value).forEach((field, v) -> putValue(values, field, v));
    }
    return node;
  }

  /** Puts {@code enums}: the constants of each enum field of {@code codec}'s type, by field. */
  private static void putEnums(final ObjectNode node, final Codec.Builder codec) {
    final ObjectNode enums = node.putObject("enums");
    codec.enums().forEach((field, constants) -> constants.forEach(enums.withArray(field)::add));
  }

  /** Puts a field's value as the dump writes one: numbers, strings, enums by name, else text. */
  private static void putValue(final ObjectNode values, final String field, final Object value) {
    if (null == value) {
      values.putNull(field);
    } else if (value instanceof Boolean b) {
      values.put(field, b);
    } else if (value instanceof Double || value instanceof Float) {
      final double d = ((Number) value).doubleValue();
      if (Double.isFinite(d)) {
        values.put(field, value instanceof Float f ? f : d);
      } else {
        values.put(field, Double.toString(d));
      }
    } else if (value instanceof Number n) {
      values.put(field, n.longValue());
    } else if (value instanceof Enum<?> e) {
      values.put(field, e.name());
    } else {
      values.put(field, Codec.clip(value));
    }
  }

  /**
   * Replaces a writable resource with a value built from {@code fields} (the others keep the
   * current value's), in the context, as {@code Context.insertOrAssign} does: built and checked
   * first (a record's constructor may refuse), then assigned, so a refusal changes nothing.
   */
  private JsonNode setResource(final ObjectNode params) {
    allow(params, "world.set_resource", "resource", "fields");
    final Class<?> type = resourceType(params.get("resource"));
    if (!writable(type)) {
      throw RpcError.params(
          "resource "
              + type.getSimpleName()
              + " is read-only: the game shows it with resource(type); resource(type, true) lets"
              + " the inspector write a record or a class with getters and setters");
    }
    final Object current = registry.context().find(type);
    if (null == current) {
      throw RpcError.params("the context holds no " + type.getSimpleName() + " to replace");
    }
    final JsonNode fields = params.get("fields");
    if (null == fields || !fields.isObject() || fields.isEmpty()) {
      throw RpcError.params(
          "fields must be an object of at least one field, like {\"speed\": 2}, got "
              + (null == fields ? "nothing" : Codec.kind(fields)));
    }
    assign(type, resourceCodec(type).build(fields, current));
    return resourceNode(type);
  }

  private <T> void assign(final Class<T> type, final Object value) {
    registry.context().insertOrAssign(type, type.cast(value));
  }

  private Class<?> resourceType(final JsonNode name) {
    if (null == name || !name.isTextual()) {
      throw RpcError.params(
          "resource must be a resource's name (a string), got "
              + (null == name ? "nothing" : Codec.kind(name)));
    }
    for (final Class<?> type : resources.keySet()) {
      if (type.getName().equals(name.textValue())
          || type.getSimpleName().equals(name.textValue())) {
        return type;
      }
    }
    throw RpcError.params(
        "no resource \""
            + Codec.clip(name.textValue())
            + "\" is shown (world.list_resources lists them)");
  }

  /** Whether the game lets the inspector write {@code type} and the codec can build it. */
  private boolean writable(final Class<?> type) {
    final Codec.Builder codec = resourceCodec(type);
    return resources.get(type) && codec.writable() && !codec.names.isEmpty();
  }

  private Codec.Builder resourceCodec(final Class<?> type) {
    return resourceCodecs.computeIfAbsent(type, Codec.Builder::new);
  }

  // ---------------------------------------------------------------------------------------------
  // Timings and watching.
  // ---------------------------------------------------------------------------------------------

  private JsonNode timings(final ObjectNode params) {
    allow(params, "world.system_timings");
    final ObjectNode result = nodes.objectNode();
    result.put("attached", null != schedule);
    final ArrayNode systems = result.putArray("systems");
    if (null != schedule) {
      result.put("frames", schedule.frame());
      result.set("frame", timing(schedule.frameTiming()));
      for (final SystemTiming timing : schedule.timings()) {
        systems.add(timing(timing));
      }
    }
    return result;
  }

  private JsonNode history(final ObjectNode params) {
    allow(params, "world.history");
    return history.toJson(nodes);
  }

  private ObjectNode timing(final SystemTiming timing) {
    return nodes
        .objectNode()
        .put("system", timing.system())
        .put("stage", timing.stage())
        .put("runs", timing.runs())
        .put("samples", timing.samples())
        .put("meanNanos", timing.meanNanos())
        .put("p50Nanos", timing.p50Nanos())
        .put("p95Nanos", timing.p95Nanos())
        .put("maxNanos", timing.maxNanos());
  }

  // ---------------------------------------------------------------------------------------------
  // The schedule: its plan and stepping.
  // ---------------------------------------------------------------------------------------------

  /** {@return the attached schedule}, after checking {@code params}; refuses if there is none. */
  private Schedule attached(final ObjectNode params, final String method, final String... allowed) {
    if (null == schedule) {
      throw new RpcError(
          RpcError.NO_SCHEDULE,
          method
              + ": no schedule is attached to the inspector (attach one with"
              + " Inspector.builder(registry).schedule(schedule))");
    }
    allow(params, method, allowed);
    return schedule;
  }

  /**
   * The plan in the order a step goes through it: stages, each a list of waves, each a list of
   * systems with their sets, whether they are enabled and always run, whether a step would run them
   * next, and their timing; with the stepping state.
   */
  private JsonNode plan(final ObjectNode params) {
    return plan(attached(params, "schedule.plan"));
  }

  private ObjectNode plan(final Schedule schedule) {
    final ObjectNode result = nodes.objectNode();
    result.put("paused", schedule.isPaused());
    putFailure(result);
    result.put("frame", schedule.frame());
    final String next = schedule.nextSystem().orElse(null);
    result.put("next", next);
    final Set<String> disabled = new HashSet<>(schedule.disabled());
    final ArrayNode disabledList = result.putArray("disabled");
    schedule.disabled().forEach(disabledList::add);
    final Map<String, SystemTiming> timings = new HashMap<>();
    for (final SystemTiming timing : schedule.timings()) {
      timings.put(timing.system(), timing);
    }
    final ArrayNode stages = result.putArray("stages");
    for (final String stageName : schedule.stages()) {
      final ObjectNode stage = stages.addObject();
      stage.put("name", stageName);
      final ArrayNode waves = stage.putArray("waves");
      for (final List<String> wave : schedule.waves(stageName)) {
        final ArrayNode systems = waves.addArray();
        for (final String name : wave) {
          final ObjectNode system = systems.addObject();
          system.put("name", name);
          final ArrayNode sets = system.putArray("sets");
          schedule.sets(name).forEach(sets::add);
          system.put("enabled", !disabled.contains(name));
          system.put("alwaysRun", schedule.isAlwaysRun(name));
          system.put("next", name.equals(next));
          final SystemTiming timing = timings.get(name);
          system
              .put("runs", timing.runs())
              .put("meanNanos", timing.meanNanos())
              .put("p95Nanos", timing.p95Nanos());
        }
      }
    }
    return result;
  }

  /**
   * Runs a stepping control of the attached schedule and answers the plan as it stands after it.
   * The schedule refuses a control while it runs a frame (a {@code serve()} called from a system),
   * before changing anything: that is error {@link RpcError#REFUSED}.
   */
  private JsonNode control(
      final ObjectNode params, final String method, final Consumer<Schedule> control) {
    final Schedule attached = attached(params, method);
    refusable(() -> control.accept(attached));
    return plan(attached);
  }

  private JsonNode setEnabled(final ObjectNode params) {
    final Schedule attached = attached(params, "schedule.set_enabled", "system", "enabled");
    final JsonNode system = params.get("system");
    if (null == system || !system.isTextual()) {
      throw RpcError.params(
          "system must be a system's name (a string), got "
              + (null == system ? "nothing" : Codec.kind(system)));
    }
    final String name = system.textValue();
    if (!attached.systems().contains(name)) {
      throw RpcError.params(
          "no system \"" + Codec.clip(name) + "\" in the schedule (schedule.plan lists them)");
    }
    final JsonNode enabled = params.get("enabled");
    if (null == enabled || !enabled.isBoolean()) {
      throw RpcError.params(
          "enabled must be true or false, got "
              + (null == enabled ? "nothing" : Codec.kind(enabled)));
    }
    if (enabled.booleanValue()) {
      refusable(() -> attached.enable(name));
    } else {
      refusable(() -> attached.disable(name));
    }
    return plan(attached);
  }

  /** Resumes the schedule, and forgets the reported failure: it is the user's answer to it. */
  private void resume(final Schedule attached) {
    attached.resume();
    failure = null;
  }

  /** Runs a schedule control; the schedule's refusal (it runs a frame) becomes a protocol error. */
  private static void refusable(final Runnable control) {
    try {
      control.run();
    } catch (final IllegalStateException e) {
      throw new RpcError(RpcError.REFUSED, "the schedule refused: " + e.getMessage());
    }
  }

  /**
   * Reports what changed: watched entities whose components differ from the digests the client
   * holds (or that died), and entities of tracked types written since {@code since}. With nothing
   * to report and {@code mayWait}, returns {@code null}: the call waits for the next serve.
   */
  private JsonNode watch(final ObjectNode params, final boolean mayWait) {
    allow(
        params, "world.watch", "entities", "digests", "components", "since", "limit", "timeout_ms");
    final List<Long> watched = watchedEntities(params.get("entities"));
    final JsonNode digests = params.get("digests");
    if (null != digests && !digests.isNull() && !digests.isObject()) {
      throw RpcError.params("digests must be an object of digests by entity, as watch returns");
    }
    final List<Storage<?>> tracked = trackedStorages(params.get("components"));
    final long since = longParam(params, "since", 0);
    final int limit = intParam(params, "limit", 100, 1, MAX_LIMIT);
    intParam(params, "timeout_ms", 0, 0, (int) MAX_WATCH_MILLIS);

    final ObjectNode result = nodes.objectNode();
    boolean any = false;
    final ObjectNode changedEntities = result.putObject("entities");
    if (!watched.isEmpty()) {
      any = putChangedEntities(changedEntities, watched, digests);
    }
    // Tracked types: the tick is advanced as a reacting system does, so the next call sees
    // exactly the writes made after this one.
    final long seen = tracked.isEmpty() ? since : registry.advanceChangeTick();
    final ObjectNode changed = result.putObject("changed");
    boolean truncated = false;
    for (final Storage<?> storage : tracked) {
      final ArrayNode list = changed.putArray(storage.type().name());
      truncated |= addChangedSince(list, storage, since, limit);
      any |= 0 != list.size();
    }
    if (!any && mayWait) {
      return null;
    }
    result.put("since", seen);
    result.put("truncated", truncated);
    result.put("alive", registry.alive());
    return result;
  }

  /** Parses watch's {@code entities}: absent or null for none, else an array of entities. */
  private static List<Long> watchedEntities(final JsonNode entityList) {
    final List<Long> watched = new ArrayList<>();
    if (null != entityList && !entityList.isNull()) {
      if (!entityList.isArray() || entityList.size() > MAX_WATCHED) {
        throw RpcError.params("entities must be an array of at most " + MAX_WATCHED + " entities");
      }
      for (final JsonNode node : entityList) {
        watched.add(Codec.parseEntity(node, "entities[" + watched.size() + "]"));
      }
    }
    return watched;
  }

  /** Resolves watch's {@code components}, refusing a type that is not tracked. */
  private List<Storage<?>> trackedStorages(final JsonNode names) {
    final List<Storage<?>> tracked = storages(names, "components");
    for (final Storage<?> storage : tracked) {
      if (!storage.isTracked()) {
        throw RpcError.params(
            "component "
                + storage.type().name()
                + " is not tracked (@Component(tracked = true)): watch its entities by value");
      }
    }
    return tracked;
  }

  /**
   * Puts into {@code changedEntities} each watched entity whose digest differs from the one the
   * client holds, or that died since; returns whether there was any.
   */
  private boolean putChangedEntities(
      final ObjectNode changedEntities, final List<Long> watched, final JsonNode digests) {
    boolean any = false;
    final long[] chosen = new long[watched.size()];
    for (int i = 0; i < chosen.length; i++) {
      chosen[i] = watched.get(i);
    }
    final JsonNode dumped = dump(chosen).get("components");
    for (int i = 0; i < chosen.length; i++) {
      final String name = Codec.entity(chosen[i]);
      final JsonNode known = null == digests ? null : digests.get(name);
      if (dumped.get(i).has("dead")) {
        if (null == known || !"dead".equals(known.asText())) {
          changedEntities.putObject(name).put("alive", false).put("digest", "dead");
          any = true;
        }
        continue;
      }
      final ObjectNode node = entityNode(dumped.get(i));
      if (null == known || !known.asText().equals(node.get("digest").asText())) {
        node.put("alive", true);
        node.remove("entity");
        final String given = name(chosen[i]);
        if (null != given) {
          node.put("name", given);
        }
        changedEntities.set(name, node);
        any = true;
      }
    }
    return any;
  }

  /**
   * Adds to {@code list}, up to {@code limit}, the valid entities whose element of the tracked
   * {@code storage} was written after {@code since}; returns whether the limit cut the list.
   */
  private boolean addChangedSince(
      final ArrayNode list, final Storage<?> storage, final long since, final int limit) {
    final long[][] ticks = storage.changeTickPages();
    for (int position = 0; position < storage.size(); position++) {
      if (ticks[position >>> storage.pageShift()][position & (storage.pageSize() - 1)] > since
          && registry.valid(storage.at(position))) {
        if (list.size() == limit) {
          return true;
        }
        list.add(Codec.entity(storage.at(position)));
      }
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers.
  // ---------------------------------------------------------------------------------------------

  /** Dumps {@code chosen} and parses the text: {@code {entities, storages, components}}. */
  private JsonNode dump(final long[] chosen) {
    final StringBuilder text = new StringBuilder(256 + 160 * chosen.length);
    try {
      SnapshotDump.write(registry, chosen, text);
      return json.readTree(text.toString());
    } catch (IOException e) {
      throw new RpcError(RpcError.INTERNAL_ERROR, "cannot read the world's dump: " + e);
    }
  }

  /**
   * The dump of {@code chosen} as a JSON array of {@code {entity, components}}, rewritten from the
   * dump's text line by line without parsing it (a thousand entities cost a fifth of a parse and a
   * tree): the dump writes one entity a line, {@code {"entity": "i:v", "Type": {...}, ...}}, its
   * strings escaped, so a line's first {@code ", "} after the entity ends the handle.
   */
  private String rawEntities(final long[] chosen) {
    final StringBuilder text = new StringBuilder(256 + 160 * chosen.length);
    try {
      SnapshotDump.write(registry, chosen, text);
    } catch (IOException e) {
      throw new RpcError(RpcError.INTERNAL_ERROR, "cannot read the world's dump: " + e);
    }
    final StringBuilder out = new StringBuilder(text.length() + 32 * chosen.length);
    out.append('[');
    int at = text.indexOf("\"components\": [");
    for (int i = 0; i < chosen.length; i++) {
      final int start = text.indexOf("{\"entity\": ", at);
      final int next = text.indexOf("\n", start);
      // Every entity but the last is followed by the separator's comma.
      final int end = ',' == text.charAt(next - 1) ? next - 1 : next;
      final int comma = text.indexOf(", ", start + 11);
      out.append(0 == i ? "" : ",");
      if (comma < 0 || comma > end) {
        out.append(text, start, end - 1).append(", \"components\": {}}"); // no component
      } else {
        out.append(text, start, comma)
            .append(", \"components\": {")
            .append(text, comma + 2, end)
            .append('}');
      }
      at = next;
    }
    return out.append(']').toString();
  }

  /** The storages section of the dump: one entry per storage, in creation order, with fields. */
  private JsonNode dumpHeader() {
    return dump(new long[0]).get("storages");
  }

  /** {@return the codec of {@code storage}'s components} */
  Codec.Builder codec(final Storage<?> storage) {
    return builder(storage);
  }

  private Codec.Builder builder(final Storage<?> storage) {
    Codec.Builder builder = builders.get(storage);
    if (null == builder) {
      final List<String> fieldNames = new ArrayList<>();
      final JsonNode header = dumpHeader();
      for (int i = 0; i < registry.storageCount(); i++) {
        if (registry.storageAt(i) == storage) {
          header.get(i).get("fields").fieldNames().forEachRemaining(fieldNames::add);
        }
      }
      builder = new Codec.Builder(storage, fieldNames);
      builders.put(storage, builder);
    }
    return builder;
  }

  /** Finds a storage by the type's name, its class's binary name or its snapshot key. */
  Storage<?> storage(final String name) {
    Storage<?> found = null;
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      if (key(storage).equals(name) || storage.type().javaClass().getName().equals(name)) {
        return storage;
      }
      if (storage.type().name().equals(name)) {
        if (null != found) {
          throw RpcError.params(
              "component name "
                  + name
                  + " is ambiguous: it names "
                  + key(found)
                  + " and "
                  + key(storage)
                  + "; use the key");
        }
        found = storage;
      }
    }
    if (null == found) {
      throw RpcError.params(
          "no component \""
              + Codec.clip(name)
              + "\" in this world (world.list_components lists them)");
    }
    return found;
  }

  private List<Storage<?>> storages(final JsonNode names, final String what) {
    final List<Storage<?>> result = new ArrayList<>();
    if (null == names || names.isNull()) {
      return result;
    }
    if (!names.isArray()) {
      throw RpcError.params(
          what + " must be an array of component names, got " + Codec.kind(names));
    }
    if (names.size() > MAX_NAMES) {
      throw RpcError.params(what + " names " + names.size() + " components; at most " + MAX_NAMES);
    }
    for (final JsonNode name : names) {
      if (!name.isTextual()) {
        throw RpcError.params(
            what + " must hold component names (strings), got " + Codec.kind(name));
      }
      result.add(storage(name.textValue()));
    }
    return result;
  }

  /**
   * Parses an entity that must be alive: {@code "index:version"}, a raw handle, or {@code "index"}
   * alone for the live entity with that index (the page's search box).
   */
  private long alive(final JsonNode node, final String what) {
    if (null != node && node.isTextual() && node.textValue().matches("[0-9]{1,10}")) {
      final long index = Long.parseLong(node.textValue());
      final long entity =
          index > Integer.MAX_VALUE ? Entity.NULL : registry.entities().current((int) index);
      if (Entity.isNull(entity) || !registry.valid(entity)) {
        throw RpcError.params(what + ": no live entity has index " + index);
      }
      return entity;
    }
    final long entity = Codec.parseEntity(node, what);
    if (!registry.valid(entity)) {
      throw RpcError.params(
          what + " " + Codec.entity(entity) + " is not alive (destroyed, or never created)");
    }
    return entity;
  }

  /** Refuses parameters other than {@code allowed}, naming them. */
  private static void allow(final ObjectNode params, final String method, final String... allowed) {
    for (final Iterator<String> it = params.fieldNames(); it.hasNext(); ) {
      final String name = it.next();
      if (!List.of(allowed).contains(name)) {
        throw RpcError.params(
            method
                + " has no parameter \""
                + Codec.clip(name)
                + "\""
                + (0 == allowed.length
                    ? " (it takes none)"
                    : "; it takes " + String.join(", ", allowed)));
      }
    }
  }

  static int intParam(
      final ObjectNode params,
      final String name,
      final int fallback,
      final int min,
      final int max) {
    final JsonNode node = params.get(name);
    if (null == node || node.isNull()) {
      return fallback;
    }
    if (!node.isIntegralNumber() || !node.canConvertToInt()) {
      throw RpcError.params(name + " must be a whole number, got " + Codec.kind(node));
    }
    final int value = node.intValue();
    if (value < min || value > max) {
      throw RpcError.params(name + " must be in [" + min + ", " + max + "], got " + value);
    }
    return value;
  }

  private static long longParam(final ObjectNode params, final String name, final long fallback) {
    final JsonNode node = params.get(name);
    if (null == node || node.isNull()) {
      return fallback;
    }
    if (!node.isIntegralNumber() || !node.canConvertToLong()) {
      throw RpcError.params(name + " must be a whole number (a tick), got " + Codec.kind(node));
    }
    return node.longValue();
  }

  private static boolean boolParam(
      final ObjectNode params, final String name, final boolean fallback) {
    final JsonNode node = params.get(name);
    if (null == node || node.isNull()) {
      return fallback;
    }
    if (!node.isBoolean()) {
      throw RpcError.params(name + " must be true or false, got " + Codec.kind(node));
    }
    return node.booleanValue();
  }

  static String key(final Storage<?> storage) {
    return storage instanceof VoidStorage
        ? "void:" + storage.type().name()
        : storage.type().javaClass().getName();
  }

  private static String kind(final Storage<?> storage) {
    if (storage instanceof VoidStorage) {
      return "void";
    }
    if (storage instanceof EmptyStorage<?>) {
      return "tag";
    }
    if (storage instanceof ObjectStorage<?>) {
      return "object";
    }
    return "generated";
  }

  private static String groupKind(final Group group) {
    if (!(group instanceof OwningGroup)) {
      return "non-owning";
    }
    return 0 == group.getCount() ? "full-owning" : "partial-owning";
  }

  private static String describe(final Group group) {
    final StringBuilder text = new StringBuilder(groupKind(group)).append('<');
    for (int n = 0; n < group.ownedCount(); n++) {
      text.append(0 == n ? "" : ", ").append(group.owned(n).type().name());
    }
    for (int n = 0; n < group.getCount(); n++) {
      text.append(0 == n && 0 == group.ownedCount() ? "" : ", ").append(group.get(n).type().name());
    }
    for (int n = 0; n < group.excludeCount(); n++) {
      text.append(", !").append(group.exclude(n).type().name());
    }
    return text.append('>').toString();
  }

  /**
   * Estimates a storage's memory in bytes: the packed array, the payload pages (primitive widths, 4
   * bytes per reference slot, not what it refers to) and the change ticks. The sparse index is not
   * counted: the public API does not expose its pages.
   */
  private long bytes(final Storage<?> storage) {
    long bytes = 8L * storage.packed().length;
    final long slots = (long) storage.pageCount() * storage.pageSize();
    if (storage instanceof EmptyStorage<?>) {
      return bytes;
    }
    if (storage instanceof ObjectStorage<?>) {
      return bytes + 4 * slots;
    }
    final Codec.Builder builder = builder(storage);
    long width = 0;
    for (final Class<?> type : builder.types) {
      width += width(type);
    }
    if (builder.types.isEmpty()) {
      width = 4;
    }
    if (storage.isTracked()) {
      width += 8;
    }
    return bytes + width * slots;
  }

  private static int width(final Class<?> type) {
    if (type == boolean.class || type == byte.class) {
      return 1;
    }
    if (type == short.class || type == char.class) {
      return 2;
    }
    if (type == long.class || type == double.class) {
      return 8;
    }
    return 4; // int, float, and a (compressed) reference
  }

  /** The first 8 bytes of the SHA-256 of the components' JSON text, in hex. */
  private String digest(final JsonNode components) {
    final byte[] hash = sha256.digest(components.toString().getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(hash, 0, 8);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
