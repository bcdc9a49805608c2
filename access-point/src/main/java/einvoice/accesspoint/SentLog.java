package einvoice.accesspoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.helger.json.IJsonObject;
import com.helger.json.convert.JsonConverter;
import com.helger.json.serialize.JsonReader;

/**
 * What the receiver stand-in sent (GET /sent), one JSON line per attempt in a file that outlives
 * restarts like its inbox: when, the message id, sender, receiver, document type, endpoint, and the
 * outcome with the receipt id or the error.
 */
final class SentLog implements SendEndpoint.Listener {
  private final Path file;

  SentLog(Path file) {
    this.file = file;
  }

  @Override
  public synchronized void sent(SendRequest request, Outcome outcome) throws IOException {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("sentAt", Instant.now().toString());
    entry.put("messageId", request.messageId());
    entry.put("senderId", request.sender().getValue());
    entry.put("receiverId", request.receiver().getValue());
    entry.put("documentTypeId", request.documentType().getURIEncoded());
    entry.put("endpointUrl", request.endpointUrl());
    entry.put("outcome", outcome.body().get("outcome"));
    if (outcome.body().containsKey("receiptMessageId")) entry.put("receiptMessageId", outcome.body().get("receiptMessageId"));
    if (outcome.body().containsKey("error")) entry.put("error", outcome.body().get("error"));
    String line = JsonConverter.convertToJson(entry).getAsJsonString() + "\n";
    Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  /** Every entry, newest first. */
  synchronized List<IJsonObject> list() throws IOException {
    if (!Files.exists(file)) return List.of();
    List<IJsonObject> entries = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) entries.add(JsonReader.builder().source(line).readAsObject());
    }
    Collections.reverse(entries);
    return entries;
  }
}
