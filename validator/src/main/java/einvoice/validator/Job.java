package einvoice.validator;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * One piece of work as the service hands it to a {@link Worker} on the worker's stdin: a validation
 * ({@code format}, {@code lang} and {@code notice} unused) or a rendering, with the document.
 */
record Job(WorkerPool.Kind kind, String format, String lang, String notice, byte[] document) {
  void write(DataOutputStream out) throws IOException {
    out.writeUTF(kind.name());
    out.writeUTF(format);
    out.writeUTF(lang);
    out.writeUTF(notice);
    out.writeInt(document.length);
    out.write(document);
    out.flush();
  }

  /** The next job; {@link java.io.EOFException} when the service closed the worker's stdin (it is retired). */
  static Job read(DataInputStream in) throws IOException {
    WorkerPool.Kind kind = WorkerPool.Kind.valueOf(in.readUTF());
    String format = in.readUTF();
    String lang = in.readUTF();
    String notice = in.readUTF();
    byte[] document = new byte[in.readInt()];
    in.readFully(document);
    return new Job(kind, format, lang, notice, document);
  }
}
