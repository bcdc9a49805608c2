package einvoice.accesspoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.helger.json.IJsonObject;
import com.helger.json.convert.JsonConverter;
import com.helger.json.serialize.JsonReader;

/**
 * The receiver stand-in's sink: per AS4 message the SBD exactly as received (.xml) and its
 * metadata (.json). The .json is written last, so it marks a complete entry - and a message id
 * seen before, which gets a receipt again and is not stored twice. Receivers named in
 * AP_REJECT_RECEIVERS are refused as not serviced, so senders can meet that final error.
 */
final class Inbox implements InboundSink {
  private final Path dir;
  /** Normalised participant ids (InboundProcessor.normalise). */
  private final Set<String> rejectedReceivers;

  Inbox(Path dir, Set<String> rejectedReceivers) {
    this.dir = dir;
    this.rejectedReceivers = rejectedReceivers;
  }

  @Override
  public String keep(InboundMessage message) throws Exception {
    if (rejectedReceivers.contains(InboundProcessor.normalise(message.receiverId()))) {
      throw InboundRefusal.notServiced("The receiver is not serviced by this access point (AP_REJECT_RECEIVERS of the local test network)");
    }
    return store(message.messageId(), message.sbd(), metadata(message))
        ? "stored in the inbox [local Peppol network stand-in]"
        : "duplicate, already stored; receipt sent again [local Peppol network stand-in]";
  }

  private static Map<String, Object> metadata(InboundMessage message) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("messageId", message.messageId());
    m.put("conversationId", message.conversationId());
    m.put("receivedAt", message.receivedAt().atOffset(ZoneOffset.UTC).toString());
    m.put("fromPartyId", message.fromPartyId());
    m.put("toPartyId", message.toPartyId());
    m.put("senderId", message.senderId());
    m.put("receiverId", message.receiverId());
    m.put("documentTypeId", message.documentTypeId());
    m.put("processId", message.processId());
    m.put("senderCertificateSubject", Certificates.subject(message.senderCertificate()));
    m.put("bytes", message.sbd().length);
    return m;
  }

  /** A file name stem for an AS4 message id: ids are free text, file names are not. */
  static String safe(String messageId) {
    String name = messageId.replaceAll("[^A-Za-z0-9._@-]", "_");
    return name.startsWith(".") ? "_" + name.substring(1) : name;
  }

  /** Whether this message id is already stored (a retry after a lost receipt). */
  private boolean contains(String messageId) {
    return Files.exists(dir.resolve(safe(messageId) + ".json"));
  }

  /** Stores a new message; false (and nothing written) when it is already there. */
  private synchronized boolean store(String messageId, byte[] sbd, Map<String, Object> metadata) throws IOException {
    if (contains(messageId)) return false;
    String stem = safe(messageId);
    writeAtomically(dir.resolve(stem + ".xml"), sbd);
    writeAtomically(dir.resolve(stem + ".json"), JsonConverter.convertToJson(metadata).getAsJsonString().getBytes(StandardCharsets.UTF_8));
    return true;
  }

  /** All metadata objects, newest first. */
  List<IJsonObject> list() throws IOException {
    List<IJsonObject> entries = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".json")).toList()) {
        String name = file.getFileName().toString();
        if (!name.startsWith(".")) entries.add(JsonReader.builder().source(file, StandardCharsets.UTF_8).readAsObject());
      }
    }
    entries.sort(Comparator.comparing((IJsonObject entry) -> String.valueOf(entry.getValue("receivedAt"))).reversed());
    return entries;
  }

  /** The stored SBD for "<safe(messageId)>.xml", or null when there is none. */
  byte[] read(String fileName) throws IOException {
    if (!fileName.endsWith(".xml") || !fileName.equals(safe(fileName))) return null;
    Path file = dir.resolve(fileName);
    return Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
  }

  private void writeAtomically(Path target, byte[] bytes) throws IOException {
    Path temp = Files.createTempFile(dir, ".incoming-", ".tmp");
    try {
      Files.write(temp, bytes);
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
