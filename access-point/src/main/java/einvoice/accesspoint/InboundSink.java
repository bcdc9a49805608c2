package einvoice.accesspoint;

/**
 * Where a verified inbound message goes: the stand-in's inbox files, or our service's intake. phase4
 * answers with a receipt only when keep returns; InboundRefusal becomes that ebMS error, anything
 * else thrown an ebMS error asking the sender to try again.
 */
interface InboundSink {
  /** Keeps the message (or already has it) and says what happened, for the log line. */
  String keep(InboundMessage message) throws Exception;
}
