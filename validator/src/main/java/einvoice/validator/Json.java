package einvoice.validator;

/** A JSON writer for the service's few flat answers: one format does not warrant a JSON library. */
final class Json {
  private final StringBuilder out = new StringBuilder();
  private boolean needsComma;

  Json begin(char bracket) {
    comma();
    out.append(bracket);
    needsComma = false;
    return this;
  }

  Json end(char bracket) {
    out.append(bracket);
    needsComma = true;
    return this;
  }

  Json key(String name) {
    comma();
    string(name).append(':');
    needsComma = false;
    return this;
  }

  Json value(String text) {
    comma();
    if (text == null) {
      out.append("null");
    } else {
      string(text);
    }
    needsComma = true;
    return this;
  }

  Json value(long number) {
    comma();
    out.append(number);
    needsComma = true;
    return this;
  }

  Json value(boolean flag) {
    comma();
    out.append(flag);
    needsComma = true;
    return this;
  }

  /** A value already written as JSON (a worker's answer, say). */
  Json raw(String json) {
    comma();
    out.append(json);
    needsComma = true;
    return this;
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private void comma() {
    if (needsComma) {
      out.append(',');
    }
  }

  private StringBuilder string(String text) {
    out.append('"');
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"');
  }
}
