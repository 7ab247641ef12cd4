package dev.phalanx.ecs;

/**
 * Component types shared by the tests. {@link ComponentType} allows one definition per class per
 * JVM, so every combination of deletion policy and page size has its own marker class; the payload
 * of every object type is a {@link Payload}, so that one test body serves every combination.
 */
public final class Fixtures {

  private Fixtures() {}

  /** A mutable payload; tests compare payloads by identity. */
  public static final class Payload {
    public int value;

    public Payload(final int value) {
      this.value = value;
    }

    @Override
    public String toString() {
      return "Payload(" + value + ")";
    }
  }

  // Marker classes: only their names and identities matter; none is ever instantiated.
  public static final class AlphaSwap {
    private AlphaSwap() {}
  }

  public static final class AlphaInPlace {
    private AlphaInPlace() {}
  }

  public static final class BetaSwap {
    private BetaSwap() {}
  }

  public static final class BetaInPlace {
    private BetaInPlace() {}
  }

  public static final class GammaSwap {
    private GammaSwap() {}
  }

  public static final class GammaInPlace {
    private GammaInPlace() {}
  }

  public static final class Page1Swap {
    private Page1Swap() {}
  }

  public static final class Page1InPlace {
    private Page1InPlace() {}
  }

  public static final class Page2Swap {
    private Page2Swap() {}
  }

  public static final class Page2InPlace {
    private Page2InPlace() {}
  }

  public static final class Page4Swap {
    private Page4Swap() {}
  }

  public static final class Page4InPlace {
    private Page4InPlace() {}
  }

  public static final class TagSwap {
    private TagSwap() {}
  }

  public static final class TagInPlace {
    private TagInPlace() {}
  }

  private static final ComponentType<Payload, ObjectStorage<Payload>> ALPHA_SWAP =
      object(AlphaSwap.class, 1024, DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> ALPHA_IN_PLACE =
      object(AlphaInPlace.class, 1024, DeletionPolicy.IN_PLACE);
  private static final ComponentType<Payload, ObjectStorage<Payload>> BETA_SWAP =
      object(BetaSwap.class, 2, DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> BETA_IN_PLACE =
      object(BetaInPlace.class, 2, DeletionPolicy.IN_PLACE);
  private static final ComponentType<Payload, ObjectStorage<Payload>> GAMMA_SWAP =
      object(GammaSwap.class, 1, DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> GAMMA_IN_PLACE =
      object(GammaInPlace.class, 1, DeletionPolicy.IN_PLACE);
  private static final ComponentType<Payload, ObjectStorage<Payload>> PAGE1_SWAP =
      object(Page1Swap.class, 1, DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> PAGE1_IN_PLACE =
      object(Page1InPlace.class, 1, DeletionPolicy.IN_PLACE);
  private static final ComponentType<Payload, ObjectStorage<Payload>> PAGE2_SWAP =
      object(Page2Swap.class, 2, DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> PAGE2_IN_PLACE =
      object(Page2InPlace.class, 2, DeletionPolicy.IN_PLACE);
  private static final ComponentType<Payload, ObjectStorage<Payload>> PAGE4_SWAP =
      object(Page4Swap.class, 4, DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> PAGE4_IN_PLACE =
      object(Page4InPlace.class, 4, DeletionPolicy.IN_PLACE);
  private static final ComponentType<TagSwap, EmptyStorage<TagSwap>> TAG_SWAP =
      ComponentType.tag(TagSwap.class);
  private static final ComponentType<TagInPlace, EmptyStorage<TagInPlace>> TAG_IN_PLACE =
      ComponentType.define(
          TagInPlace.class,
          ComponentTraits.TAG.withPolicy(DeletionPolicy.IN_PLACE),
          type -> new EmptyStorage<>(type, null));

  /** An object type with 1024-element pages. */
  public static ComponentType<Payload, ObjectStorage<Payload>> alpha(final DeletionPolicy policy) {
    return DeletionPolicy.IN_PLACE == policy ? ALPHA_IN_PLACE : ALPHA_SWAP;
  }

  /** An object type with 2-element pages. */
  public static ComponentType<Payload, ObjectStorage<Payload>> beta(final DeletionPolicy policy) {
    return DeletionPolicy.IN_PLACE == policy ? BETA_IN_PLACE : BETA_SWAP;
  }

  /** An object type with 1-element pages. */
  public static ComponentType<Payload, ObjectStorage<Payload>> gamma(final DeletionPolicy policy) {
    return DeletionPolicy.IN_PLACE == policy ? GAMMA_IN_PLACE : GAMMA_SWAP;
  }

  /**
   * An object type with {@code pageSize}-element pages (1, 2, 4 or 1024), for storage-level tests.
   */
  public static ComponentType<Payload, ObjectStorage<Payload>> paged(
      final DeletionPolicy policy, final int pageSize) {
    final boolean inPlace = DeletionPolicy.IN_PLACE == policy;
    switch (pageSize) {
      case 1:
        return inPlace ? PAGE1_IN_PLACE : PAGE1_SWAP;
      case 2:
        return inPlace ? PAGE2_IN_PLACE : PAGE2_SWAP;
      case 4:
        return inPlace ? PAGE4_IN_PLACE : PAGE4_SWAP;
      case 1024:
        return alpha(policy);
      default:
        throw new IllegalArgumentException("no fixture with page size " + pageSize);
    }
  }

  /** A tag type (no payload). */
  @SuppressWarnings({"unchecked", "rawtypes"}) // two marker classes, one shape
  public static ComponentType<Object, EmptyStorage<Object>> tag(final DeletionPolicy policy) {
    return (ComponentType) (DeletionPolicy.IN_PLACE == policy ? TAG_IN_PLACE : TAG_SWAP);
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // object storages never check the class of a value
  private static ComponentType<Payload, ObjectStorage<Payload>> object(
      final Class<?> marker, final int pageSize, final DeletionPolicy policy) {
    return (ComponentType)
        ComponentType.object(
            marker, ComponentTraits.DEFAULT.withPageSize(pageSize).withPolicy(policy));
  }
}
