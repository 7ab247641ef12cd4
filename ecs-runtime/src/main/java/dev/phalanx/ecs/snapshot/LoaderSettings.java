package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ComponentType;
import java.util.HashMap;
import java.util.Map;

/**
 * What a snapshot loader knows beyond the stream, shared by {@link SnapshotLoader} and {@link
 * ContinuousLoader}: the codecs of reference types, and component types by snapshot key (the types
 * given to {@code types(...)} and the aliases of renamed classes), looked up before the class
 * loaders. Not thread-safe; configured before loading.
 */
final class LoaderSettings {

  /** Codecs by the class of the values they read. */
  final Map<Class<?>, ValueCodec<?>> codecs = new HashMap<>();

  /** Types by the key a snapshot names them with. */
  final Map<String, ComponentType<?, ?>> types = new HashMap<>();

  <T> void codec(final Class<T> type, final ValueCodec<T> codec) {
    codecs.put(type, codec);
  }

  void types(final ComponentType<?, ?>... extraTypes) {
    for (final ComponentType<?, ?> type : extraTypes) {
      types.put(SnapshotFormat.key(type), type);
    }
  }

  void alias(final String savedClassName, final ComponentType<?, ?> type) {
    types.put(SnapshotFormat.classKey(savedClassName), type);
  }
}
