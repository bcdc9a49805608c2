package einvoice.accesspoint;

import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.helger.json.convert.JsonConverter;
import com.helger.peppolid.IDocumentTypeIdentifier;
import com.helger.peppolid.IParticipantIdentifier;
import com.helger.peppolid.factory.PeppolIdentifierFactory;
import com.helger.smpclient.peppol.SMPClientReadOnly;
import com.helger.xsds.peppol.smp1.EndpointType;
import com.helger.xsds.peppol.smp1.ProcessType;
import com.helger.xsds.peppol.smp1.SignedServiceMetadataType;

/**
 * `java -jar peppol-access-point.jar smp-read <SMP URL> <participant value> <document type id>
 * <trust store (PKCS#12)> <password>`: what peppol-commons' SMP client (the one phase4 and phoss-ap
 * look receivers up with; none of our code) reads from an SMP: the signed service metadata of one
 * participant and document type, its signature checked against the trust store, every endpoint with
 * its certificate. Printed as JSON on stdout; exit 1 with the client's reason on stderr. It exists so
 * the tests can have our SMP read by an implementation we did not write.
 */
final class SmpRead {
  private SmpRead() {}

  static void run(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println("usage: smp-read <SMP URL> <participant value> <document type id> <trust store> <password>");
      System.exit(2);
    }
    IParticipantIdentifier participant = PeppolIdentifierFactory.INSTANCE.createParticipantIdentifierWithDefaultScheme(args[2]);
    IDocumentTypeIdentifier documentType = PeppolIdentifierFactory.INSTANCE.parseDocumentTypeIdentifier(args[3]);
    if (participant == null || documentType == null) {
      System.err.println("not a participant value and a document type id (scheme::value): " + args[2] + ", " + args[3]);
      System.exit(2);
    }
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(Path.of(args[4]))) {
      trust.load(in, args[5].toCharArray());
    }
    SMPClientReadOnly client = new SMPClientReadOnly(URI.create(args[1]));
    client.setTrustStore(trust);
    client.setVerifySignature(true);
    client.setSecureValidation(true);
    client.setXMLSchemaValidation(true);
    SignedServiceMetadataType metadata;
    try {
      metadata = client.getServiceMetadataOrNull(participant, documentType, null);
    } catch (Exception e) {
      System.err.println("peppol-commons' SMP client refused the answer: " + e);
      System.exit(1);
      return;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("found", metadata != null);
    List<Map<String, Object>> endpoints = new ArrayList<>();
    if (metadata != null && metadata.getServiceMetadata().getServiceInformation() != null) {
      for (ProcessType process : metadata.getServiceMetadata().getServiceInformation().getProcessList().getProcess()) {
        for (EndpointType endpoint : process.getServiceEndpointList().getEndpoint()) {
          Map<String, Object> described = new LinkedHashMap<>();
          described.put("process", process.getProcessIdentifier().getValue());
          described.put("transportProfile", endpoint.getTransportProfile());
          described.put("url", SMPClientReadOnly.getEndpointAddress(endpoint));
          X509Certificate certificate = SMPClientReadOnly.getEndpointCertificate(endpoint);
          described.put("certificateSubject", certificate == null ? null : certificate.getSubjectX500Principal().getName());
          endpoints.add(described);
        }
      }
    }
    out.put("endpoints", endpoints);
    System.out.println(JsonConverter.convertToJson(out).getAsJsonString());
  }
}
