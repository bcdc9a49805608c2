package einvoice.accesspoint;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Registers and unregisters our SMP's participants in the SML, so that each one's NAPTR record
 * points at our SMP. Both are idempotent: a workflow may repeat them after a lost answer.
 */
final class SmlRegistrar {
  /** A refusal or an outage; `permanent` when trying again cannot help. */
  static final class Failure extends Exception {
    final boolean permanent;

    Failure(String message, boolean permanent) {
      super(message);
      this.permanent = permanent;
    }
  }

  /** More pages than this and the SML is not answering a list of ours. */
  private static final int MAX_PAGES = 10_000;

  private final SmlSettings settings;
  private final SmlClient sml;
  private final Object smpRecordLock = new Object();

  SmlRegistrar(SmlSettings settings) {
    this.settings = settings;
    this.sml = new SmlClient(settings);
  }

  SmlSettings settings() {
    return settings;
  }

  /**
   * Registers the participant under our SMP; with a migration key (from the SMP that holds it now,
   * which prepared the migration), takes it over from that SMP instead of creating it.
   */
  void register(String participantValue, String migrationKey) throws Failure {
    try {
      ensureSmpRecord();
      if (migrationKey != null) {
        // A repeated request finds it ours already, and the key used up.
        if (!isOurs(participantValue)) sml.migrate(participantValue, migrationKey);
        return;
      }
      try {
        sml.createParticipant(participantValue);
      } catch (SmlClient.Fault fault) {
        // The SML refuses a participant that exists: fine if it is ours already (a repeated request).
        if (!fault.is("BadRequestFault") || !isOurs(participantValue)) throw fault;
      }
    } catch (SmlClient.Fault fault) {
      throw refused((migrationKey != null ? "migrate " : "register ") + participantValue, fault);
    } catch (SmlClient.Unavailable e) {
      throw new Failure(e.getMessage(), e.permanent);
    }
  }

  /** Lets another SMP take over a participant of ours with this key (the participant stays ours until it does). */
  void prepareMigration(String participantValue, String migrationKey) throws Failure {
    try {
      sml.prepareToMigrate(participantValue, migrationKey);
    } catch (SmlClient.Fault fault) {
      throw refused("prepare the migration of " + participantValue, fault);
    } catch (SmlClient.Unavailable e) {
      throw new Failure(e.getMessage(), e.permanent);
    }
  }

  void unregister(String participantValue) throws Failure {
    try {
      sml.deleteParticipant(participantValue);
    } catch (SmlClient.Fault fault) {
      // Not there (or our SMP record is not there, so neither is any participant of ours): done already.
      if (fault.is("NotFoundFault")) return;
      throw refused("unregister " + participantValue, fault);
    } catch (SmlClient.Unavailable e) {
      throw new Failure(e.getMessage(), e.permanent);
    }
  }

  /** Our SMP record exists with our addresses before any participant names it; made or corrected when not. */
  private void ensureSmpRecord() throws SmlClient.Fault, SmlClient.Unavailable {
    // One at a time: two first registrations must not both create the record (the second would be refused).
    synchronized (smpRecordLock) {
      SmlClient.SmpRecord current;
      try {
        current = sml.readSmp();
      } catch (SmlClient.Fault fault) {
        if (!fault.is("NotFoundFault")) throw fault;
        sml.writeSmp(false);
        Log.LOG.info("SML: created SMP {} at {} ({})", settings.smpId(), settings.smpUrl(), settings.smpIp());
        return;
      }
      if (!current.logicalAddress().equals(settings.smpUrl()) || !current.physicalAddress().equals(settings.smpIp())) {
        sml.writeSmp(true);
        Log.LOG.info("SML: moved SMP {} from {} ({}) to {} ({})", settings.smpId(), current.logicalAddress(),
            current.physicalAddress(), settings.smpUrl(), settings.smpIp());
      }
    }
  }

  /** Whether the SML lists the participant under our SMP (values compare case-insensitively, as Peppol's do). */
  private boolean isOurs(String participantValue) throws SmlClient.Fault, SmlClient.Unavailable {
    String wanted = participantValue.toLowerCase(Locale.ROOT);
    String pageId = "";
    Set<String> seenPages = new HashSet<>();
    for (int page = 0; page < MAX_PAGES && pageId != null && seenPages.add(pageId); page++) {
      SmlClient.Page answer = sml.listParticipants(pageId);
      if (answer.participantValues().stream().anyMatch(value -> value.toLowerCase(Locale.ROOT).equals(wanted))) return true;
      pageId = answer.nextPageId();
    }
    return false;
  }

  /**
   * A fault no retry mends, except the SML's own internal error. For a participant that exists
   * but is not ours, BDMSL's "already exist" is the answer: another SMP holds it (a migration is
   * how it moves).
   */
  private Failure refused(String what, SmlClient.Fault fault) {
    boolean permanent = !fault.is("InternalErrorFault");
    return new Failure("the SML refused to " + what + " for SMP " + settings.smpId() + ": " + fault.kind + " "
        + fault.getMessage(), permanent);
  }
}
