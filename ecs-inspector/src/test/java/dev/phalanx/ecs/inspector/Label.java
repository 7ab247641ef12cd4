package dev.phalanx.ecs.inspector;

import dev.phalanx.ecs.annotations.Component;
import java.util.List;

/** A test component that is a class with getters and setters, an enum and a list field. */
@Component(pageSize = 32)
public class Label {

  /** A colour. */
  public enum Color {
    RED,
    GREEN,
    BLUE
  }

  private String text;
  private Color color;
  private long big;
  private List<String> tags;

  /** An empty label. */
  public Label() {}

  /** A label with every field. */
  public Label(final String text, final Color color, final long big, final List<String> tags) {
    this.text = text;
    this.color = color;
    this.big = big;
    this.tags = tags;
  }

  /** {@return the text} */
  public String getText() {
    return text;
  }

  /** Sets the text. */
  public void setText(final String text) {
    this.text = text;
  }

  /** {@return the colour} */
  public Color getColor() {
    return color;
  }

  /** Sets the colour. */
  public void setColor(final Color color) {
    this.color = color;
  }

  /** {@return a long} */
  public long getBig() {
    return big;
  }

  /** Sets the long. */
  public void setBig(final long big) {
    this.big = big;
  }

  /** {@return the tags} */
  public List<String> getTags() {
    return tags;
  }

  /** Sets the tags. */
  public void setTags(final List<String> tags) {
    this.tags = tags;
  }
}
