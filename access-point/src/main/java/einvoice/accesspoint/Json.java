package einvoice.accesspoint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough JSON for this service's flat requests and answers: maps, lists, strings, numbers,
 * booleans and null. One small format does not warrant a JSON library in the jar.
 */
final class Json {
  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  /** Parses a JSON document; throws IllegalArgumentException with the position on bad input. */
  static Object parse(String text) {
    Json p = new Json(text);
    Object value = p.value();
    p.skipSpace();
    if (p.pos != text.length()) throw p.error("trailing characters");
    return value;
  }

  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      String sep = "";
      for (var e : map.entrySet()) {
        out.append(sep);
        string(String.valueOf(e.getKey()), out);
        out.append(':');
        write(e.getValue(), out);
        sep = ",";
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      String sep = "";
      for (Object item : list) {
        out.append(sep);
        write(item, out);
        sep = ",";
      }
      out.append(']');
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else {
      string(value.toString(), out);
    }
  }

  private static void string(String s, StringBuilder out) {
    out.append('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    out.append('"');
  }

  private Object value() {
    skipSpace();
    if (pos >= text.length()) throw error("unexpected end");
    char c = text.charAt(pos);
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') return string();
    if (text.startsWith("true", pos)) return literal("true", Boolean.TRUE);
    if (text.startsWith("false", pos)) return literal("false", Boolean.FALSE);
    if (text.startsWith("null", pos)) return literal("null", null);
    return number();
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    pos++;
    skipSpace();
    if (peek('}')) return map;
    do {
      skipSpace();
      if (!peek('"')) throw error("expected a key");
      pos--;
      String key = string();
      skipSpace();
      if (!peek(':')) throw error("expected ':'");
      map.put(key, value());
      skipSpace();
    } while (peek(','));
    if (!peek('}')) throw error("expected ',' or '}'");
    return map;
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    pos++;
    skipSpace();
    if (peek(']')) return list;
    do {
      list.add(value());
      skipSpace();
    } while (peek(','));
    if (!peek(']')) throw error("expected ',' or ']'");
    return list;
  }

  private String string() {
    StringBuilder out = new StringBuilder();
    pos++;
    while (pos < text.length()) {
      char c = text.charAt(pos++);
      if (c == '"') return out.toString();
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (pos >= text.length()) break;
      char e = text.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) throw error("bad \\u escape");
          out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> throw error("bad escape");
      }
    }
    throw error("unterminated string");
  }

  private Object number() {
    int start = pos;
    while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) pos++;
    if (start == pos) throw error("unexpected character");
    String number = text.substring(start, pos);
    try {
      // Whole numbers stay whole, so they are written back as they came (e.g. "bytes": 6498).
      return number.matches("-?\\d{1,18}") ? (Object) Long.parseLong(number) : (Object) Double.parseDouble(number);
    } catch (NumberFormatException e) {
      throw error("bad number");
    }
  }

  private Object literal(String word, Object value) {
    pos += word.length();
    return value;
  }

  private boolean peek(char c) {
    if (pos < text.length() && text.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) pos++;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("invalid JSON at offset " + pos + ": " + what);
  }
}
