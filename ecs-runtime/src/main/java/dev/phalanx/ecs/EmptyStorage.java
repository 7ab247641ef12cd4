package dev.phalanx.ecs;

/**
 * A storage for a tag type: it records which entities have the component and stores no payload (the
 * empty-type optimization). {@link #get} returns one shared instance (or {@code null} when none was
 * given), since all instances of a type without state are alike.
 *
 * <h2>Costs</h2>
 *
 * <p>The sparse set only: a sparse entry and a packed entity per element, no payload page.
 *
 * @param <T> the tag class
 */
public class EmptyStorage<T> extends Storage<T> {

  private final T instance;

  /**
   * Creates an empty storage.
   *
   * @param type the tag type
   * @param instance what {@link #get} returns, or {@code null}
   */
  public EmptyStorage(final ComponentType<T, ?> type, final T instance) {
    super(type);
    this.instance = instance;
  }

  /**
   * Adds the tag to {@code entity}.
   *
   * @param entity the entity that receives the tag
   * @throws IllegalArgumentException as {@link #emplace(long, Object)}
   */
  public final void emplace(final long entity) {
    commitInsert(entity, prepareInsert(entity));
  }

  @Override
  protected void allocatePage(final int page) {
    // No payload.
  }

  @Override
  protected T getAt(final int position) {
    return instance;
  }

  @Override
  protected void setAt(final int position, final T value) {
    // No payload.
  }
}
