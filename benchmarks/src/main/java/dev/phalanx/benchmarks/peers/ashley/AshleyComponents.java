package dev.phalanx.benchmarks.peers.ashley;

import com.badlogic.ashley.core.Component;

/** Ashley components: classes implementing {@code com.badlogic.ashley.core.Component}. */
public final class AshleyComponents {

  private AshleyComponents() {}

  public static final class Position implements Component {
    public float x;
    public float y;
  }

  public static final class Velocity implements Component {
    public float x;
    public float y;
  }

  public static final class Scale implements Component {
    public float s = 1f;
  }

  public static final class Heat implements Component {
    public float value;
  }

  public static final class Age implements Component {
    public float value;
  }

  public static final class Marker implements Component {
    public int value;
  }
}
