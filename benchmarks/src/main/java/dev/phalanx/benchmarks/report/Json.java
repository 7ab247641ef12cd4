package dev.phalanx.benchmarks.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader for JMH's result files, so that the report needs no dependency: objects
 * become {@link LinkedHashMap}s, arrays {@link ArrayList}s, numbers {@link Double}s ("NaN" strings,
 * which JMH writes for missing errors, stay strings).
 */
final class Json {

  private final String text;
  private int at;

  private Json(final String text) {
    this.text = text;
  }

  static Object parse(final String text) {
    final Json json = new Json(text);
    final Object value = json.value();
    json.skipSpace();
    if (json.at != text.length()) {
      throw json.error("trailing characters");
    }
    return value;
  }

  private Object value() {
    skipSpace();
    if (at >= text.length()) {
      throw error("unexpected end");
    }
    return switch (text.charAt(at)) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object() {
    final Map<String, Object> map = new LinkedHashMap<>();
    elements(
        '}',
        () -> {
          skipSpace();
          final String key = string();
          skipSpace();
          expect(':');
          map.put(key, value());
        });
    return map;
  }

  private List<Object> array() {
    final List<Object> list = new ArrayList<>();
    elements(']', () -> list.add(value()));
    return list;
  }

  /** Reads the comma-separated elements after an opening bracket, up to {@code close}. */
  private void elements(final char close, final Runnable element) {
    at++;
    skipSpace();
    if (peek() == close) {
      at++;
      return;
    }
    while (true) {
      element.run();
      skipSpace();
      if (peek() != ',') {
        expect(close);
        return;
      }
      at++;
    }
  }

  private String string() {
    expect('"');
    final StringBuilder out = new StringBuilder();
    for (char c = text.charAt(at++); c != '"'; c = text.charAt(at++)) {
      if (c != '\\') {
        out.append(c);
      } else if (text.charAt(at) == 'u') {
        out.append((char) Integer.parseInt(text.substring(at + 1, at + 5), 16));
        at += 5;
      } else {
        final char e = text.charAt(at++);
        final int escape = "ntrbf".indexOf(e);
        out.append(escape < 0 ? e : "\n\t\r\b\f".charAt(escape));
      }
    }
    return out.toString();
  }

  private Double number() {
    final int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
    if (start == at) {
      throw error("unexpected character '" + text.charAt(at) + "'");
    }
    return Double.valueOf(text.substring(start, at));
  }

  private Object literal(final String word, final Object value) {
    if (!text.startsWith(word, at)) {
      throw error("expected " + word);
    }
    at += word.length();
    return value;
  }

  private char peek() {
    return at < text.length() ? text.charAt(at) : '\0';
  }

  private void expect(final char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    at++;
  }

  private void skipSpace() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
  }

  private IllegalArgumentException error(final String message) {
    return new IllegalArgumentException("JSON: " + message + " at offset " + at);
  }
}
