package dev.phalanx.benchmarks.peers.artemis;

import com.artemis.Component;

/** artemis-odb components: classes extending {@code com.artemis.Component}, as artemis requires. */
public final class ArtemisComponents {

  private ArtemisComponents() {}

  public static final class Position extends Component {
    public float x;
    public float y;
  }

  public static final class Velocity extends Component {
    public float x;
    public float y;
  }

  public static final class Scale extends Component {
    public float s = 1f;
  }

  public static final class Heat extends Component {
    public float value;
  }

  public static final class Age extends Component {
    public float value;
  }

  public static final class Marker extends Component {
    public int value;
  }
}
