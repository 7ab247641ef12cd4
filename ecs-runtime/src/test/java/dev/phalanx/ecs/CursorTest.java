package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The base cursor: the page shifts it accepts and the mask it derives from them. */
class CursorTest {

  /** A cursor that only records its position. */
  private static final class Plain extends Cursor {
    Plain(final int pageShift) {
      super(pageShift);
    }

    @Override
    protected void point(final int position) {
      this.position = position;
    }

    @Override
    protected void moveToPage(final int page) {
      this.position = page << pageShift;
    }

    @Override
    protected void moveWithinPage(final int offset) {
      this.position = (position & ~pageMask) | offset;
    }

    @Override
    protected void moveToElement(final int page, final int offset) {
      this.position = page << pageShift | offset;
    }
  }

  @Test
  void everyPageShiftFromZeroTo31IsAcceptedWithItsMask() {
    final Plain single = new Plain(0);
    assertEquals(0, single.pageMask, "pages of one element");
    assertEquals(-1, single.currentPosition());
    single.moveToElement(5, 0);
    assertEquals(5, single.currentPosition());
    final Plain widest = new Plain(31);
    assertEquals(Integer.MAX_VALUE, widest.pageMask, "one page of 2^31 positions");
    widest.moveToElement(0, 123_456);
    assertEquals(123_456, widest.currentPosition());
    assertEquals(4_095, new Plain(12).pageMask);
  }

  @Test
  void aPageShiftOutsideZeroTo31IsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Plain(-1));
    assertThrows(IllegalArgumentException.class, () -> new Plain(32));
  }
}
