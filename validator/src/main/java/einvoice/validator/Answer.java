package einvoice.validator;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** A {@link Job}'s outcome as the HTTP answer the service gives: a worker writes it on its stdout. */
record Answer(int status, String contentType, byte[] body) {
  static final String JSON = "application/json; charset=utf-8";

  static Answer json(int status, Json json) {
    return new Answer(status, JSON, json.toString().getBytes(StandardCharsets.UTF_8));
  }

  void write(DataOutputStream out) throws IOException {
    out.writeInt(status);
    out.writeUTF(contentType);
    out.writeInt(body.length);
    out.write(body);
    out.flush();
  }

  static Answer read(DataInputStream in) throws IOException {
    int status = in.readInt();
    String contentType = in.readUTF();
    byte[] body = new byte[in.readInt()];
    in.readFully(body);
    return new Answer(status, contentType, body);
  }
}
