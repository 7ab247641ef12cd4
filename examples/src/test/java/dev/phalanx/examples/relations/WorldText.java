package dev.phalanx.examples.relations;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.EntityLinks;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.util.ArrayList;
import java.util.List;

/**
 * The world as text, for "nothing changed" checks: every live entity, sorted, with each component's
 * value and, for a relationship kind, its target and its sources as the reverse side lists them.
 */
final class WorldText {

  private WorldText() {}

  static String of(final Registry registry) {
    final long[] packed = registry.entities().packed();
    final List<Long> live = new ArrayList<>();
    for (int at = 0; at < registry.entities().alive(); at++) {
      live.add(packed[at]);
    }
    live.sort(null);
    final StringBuilder out = new StringBuilder();
    for (final long entity : live) {
      out.append(Entity.toString(entity)).append(':');
      for (int s = 0; s < registry.storageCount(); s++) {
        final Storage<?> storage = registry.storageAt(s);
        final EntityLinks links = storage.entityLinks();
        if (storage.contains(entity)) {
          out.append(' ').append(storage.get(entity));
        }
        if (null != links && links.sourceCount(entity) > 0) {
          out.append(' ').append(storage.type().name()).append(" sources [");
          for (long source = links.firstSource(entity);
              !Entity.isNull(source);
              source = links.nextSource(source)) {
            out.append(Entity.toString(source)).append(' ');
          }
          out.append(']');
        }
      }
      out.append('\n');
    }
    return out.toString();
  }
}
