package dev.phalanx.examples.components;

import dev.phalanx.ecs.annotations.Component;
import java.util.List;

/**
 * Reference, enum, parameterized and array fields, private behind getters and setters: the storage
 * keeps them in typed reference pages.
 */
@Component(pageSize = 32)
public class Label {

  /** A label colour. */
  public enum Color {
    /** Red. */
    RED,
    /** Green. */
    GREEN,
    /** Blue. */
    BLUE
  }

  private String text;
  private Color color;
  private List<String> tags;
  private int[] codes;

  /** Creates an empty label. */
  public Label() {}

  /**
   * Creates a label.
   *
   * @param text the text
   * @param color the colour
   * @param tags the tags
   * @param codes the codes
   */
  public Label(final String text, final Color color, final List<String> tags, final int[] codes) {
    this.text = text;
    this.color = color;
    this.tags = tags;
    this.codes = codes;
  }

  /** Returns the text. */
  public String getText() {
    return text;
  }

  /** Sets the text. */
  public void setText(final String text) {
    this.text = text;
  }

  /** Returns the colour. */
  public Color getColor() {
    return color;
  }

  /** Sets the colour. */
  public void setColor(final Color color) {
    this.color = color;
  }

  /** Returns the tags. */
  public List<String> getTags() {
    return tags;
  }

  /** Sets the tags. */
  public void setTags(final List<String> tags) {
    this.tags = tags;
  }

  /** Returns the codes. */
  public int[] getCodes() {
    return codes;
  }

  /** Sets the codes. */
  public void setCodes(final int[] codes) {
    this.codes = codes;
  }
}
