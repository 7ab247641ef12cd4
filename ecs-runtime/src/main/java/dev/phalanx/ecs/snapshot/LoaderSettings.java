package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ComponentType;
import java.util.HashMap;
import java.util.Map;

/**
 * What a snapshot loader knows beyond the stream, the base of {@link SnapshotLoader} and {@link
 * ContinuousLoader}: the codecs of reference types, and component types by snapshot key (the types
 * given to {@code types(...)} and the aliases of renamed classes), looked up before the class
 * loaders. The configuration methods return the loader itself ({@code L}). Not thread-safe;
 * configured before loading: from a codec or listener of a load under way they are refused.
 *
 * @param <L> the loader
 */
abstract sealed class LoaderSettings<L extends LoaderSettings<L>>
    permits SnapshotLoader, ContinuousLoader {

  /** Codecs by the class of the values they read. */
  final Map<Class<?>, ValueCodec<?>> codecs = new HashMap<>();

  /** Types by the key a snapshot names them with. */
  final Map<String, ComponentType<?, ?>> typesByKey = new HashMap<>();

  /** The load (or orphans call) under way, which refuses nested calls from its user code. */
  final CallGuard guard;

  LoaderSettings(final String name) {
    this.guard = new CallGuard(name);
  }

  /** {@return this loader} */
  abstract L self();

  /**
   * Registers the codec of reference type {@code type}.
   *
   * @param type the class of the values
   * @param codec reads them
   * @param <T> the value type
   * @return this loader
   * @throws IllegalStateException if called from a codec or listener of a load under way
   */
  public <T> L codec(final Class<T> type, final ValueCodec<T> codec) {
    guard.check("register a codec");
    codecs.put(type, codec);
    return self();
  }

  /**
   * Adds types the snapshot may name. A stream may name only these, the target registry's storages'
   * types and the hierarchy's: give every saved type whose storage the target does not have yet.
   * Each call adds to the earlier ones, so that {@code types(a).types(b)} accepts both: every
   * writer and loader of this package reads {@code types(...)} this way (as EnTT's snapshot calls,
   * flecs' filters and Bevy's replication rules are built up one component at a time), and a call
   * never drops what an earlier one chose.
   *
   * @param extraTypes the types, besides those of earlier calls
   * @return this loader
   * @throws IllegalStateException if called from a codec or listener of a load under way
   */
  public L types(final ComponentType<?, ?>... extraTypes) {
    guard.check("add types");
    for (final ComponentType<?, ?> type : extraTypes) {
      typesByKey.put(SnapshotFormat.key(type), type);
    }
    return self();
  }

  /**
   * Loads the storage saved for class {@code savedClassName} (binary name) into {@code type}: for
   * renamed or moved classes, and to load a saved type into a newer version of it. Fields are then
   * matched by name as usual.
   *
   * @param savedClassName the binary name of the class the snapshot names
   * @param type the type to load it into
   * @return this loader
   * @throws IllegalStateException if called from a codec or listener of a load under way
   */
  public L alias(final String savedClassName, final ComponentType<?, ?> type) {
    guard.check("add an alias");
    typesByKey.put(SnapshotFormat.classKey(savedClassName), type);
    return self();
  }
}
