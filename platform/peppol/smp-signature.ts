import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { SignedXml } from 'xml-crypto';

import { distinguishedName, trustProblem, type TrustAnchors } from '../../domain/peppol/certificate-trust';
import type { SignatureCheck } from '../../domain/peppol/capabilities';
import { SMP_NAMESPACE } from '../../domain/peppol/smp';

/**
 * The XML signature of Peppol SMP 1.x service metadata (the Peppol SMP
 * specification 1.4.0, its signature profile), written and checked with xml-crypto in
 * the form phoss-SMP writes it (SMPKeyManager.signXML, type peppol) and the
 * Peppol SMP client checks it (peppol-commons SMPHttpResponseHandlerSigned
 * with TrustStoreBasedX509KeySelector): an enveloped ds:Signature as the last
 * child of SignedServiceMetadata, one Reference with URI="" (the whole
 * document), exactly one Transform, enveloped-signature (SMP 1.2.0 §5.5),
 * SignedInfo canonicalised by C14N 1.0, inclusive as SMP 1.2.0 names it (and
 * as we write it) or exclusive (as real SMPs' recorded answers are), RSA-SHA256
 * over a SHA-256 digest (SMP 1.3.0, in force since June 2024; before it, SMP
 * 1.2.0's RSA-SHA1 over SHA-1), and the signing certificate in
 * KeyInfo/X509Data/X509Certificate.
 */

const DSIG_NAMESPACE = 'http://www.w3.org/2000/09/xmldsig#';
const INCLUSIVE_C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
const EXCLUSIVE_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

/** The signature and digest algorithms a generation of the Peppol SMP specification prescribes. */
export interface SmpSignatureRules {
  name: string;
  signatureMethod: string;
  digestMethod: string;
}

/** SMP 1.3.0 (OpenPeppol, November 2023; every SMP by the end of May 2024): SHA-256 in place of SHA-1. What a lookup asks of an answer today. */
const SMP_1_3: SmpSignatureRules = {
  name: 'Peppol SMP 1.3.0',
  signatureMethod: RSA_SHA256,
  digestMethod: SHA256,
};
/**
 * SMP 1.2.0, before it: what answers recorded from real SMPs until 2024 carry (the tests read such recordings).
 * @internal
 */
export const SMP_1_2: SmpSignatureRules = {
  name: 'Peppol SMP 1.2.0',
  signatureMethod: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  digestMethod: 'http://www.w3.org/2000/09/xmldsig#sha1',
};
const ENVELOPED_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/** The few DOM members read here, of the document xml-crypto's own parser (xmldom) builds. */
interface DomElement {
  nodeType: number;
  namespaceURI: string | null;
  localName: string;
  parentNode: unknown;
  textContent: string | null;
  childNodes: ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
}
interface DomDocument {
  documentElement: DomElement | null;
  doctype: unknown;
  getElementsByTagNameNS(namespace: string, name: string): ArrayLike<DomElement>;
}
type ParseError = (message: string) => void;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- xmldom's typings reference the DOM library, which would change the globals of every file (fetch, Response) for one parser
const { DOMParser } = require('@xmldom/xmldom') as {
  DOMParser: new (options: { errorHandler: { warning: ParseError; error: ParseError; fatalError: ParseError } }) => {
    parseFromString(xml: string, mimeType: string): DomDocument;
  };
};

/** The SMP's signing certificate and its key, both PEM (the key PKCS#8, unencrypted). */
export interface SmpSigner {
  certificate: string;
  privateKey: string;
}

/** Signs a SignedServiceMetadata document written without its signature (domain/peppol/smp-publishing.ts). */
export function signServiceMetadata(xml: string, signer: SmpSigner): string {
  const signature = new SignedXml({
    privateKey: signer.privateKey,
    publicCert: signer.certificate,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: INCLUSIVE_C14N,
  });
  // Enveloped alone: the node set left after it is canonicalised with inclusive C14N, as the spec's one Transform means.
  signature.addReference({ xpath: '/*', isEmptyUri: true, transforms: [ENVELOPED_SIGNATURE], digestAlgorithm: SHA256 });
  signature.computeSignature(xml, { prefix: 'ds', location: { reference: '/*', action: 'append' } });
  return signature.getSignedXml();
}

/**
 * Reads the signer from its PEM files, checking that the key belongs to the
 * certificate: a mismatch would sign every answer with a signature no one can
 * verify.
 */
export function readSmpSigner(certificateFile: string, keyFile: string): SmpSigner {
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new Error(`the SMP signing ${what} ${file} cannot be read: ${(err as Error).message}`);
    }
  };
  const signer = { certificate: read(certificateFile, 'certificate'), privateKey: read(keyFile, 'key') };
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(signer.certificate);
  } catch (err) {
    throw new Error(
      `the SMP signing certificate ${certificateFile} is not a PEM certificate: ${(err as Error).message}`,
    );
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(signer.privateKey);
  } catch (err) {
    throw new Error(`the SMP signing key ${keyFile} is not an unencrypted PEM private key: ${(err as Error).message}`);
  }
  if (!certificate.checkPrivateKey(key))
    throw new Error(`the SMP signing key ${keyFile} does not belong to the certificate ${certificateFile}`);
  return signer;
}

const childElements = (parent: DomElement, name: string): DomElement[] =>
  Array.from(parent.childNodes).filter(
    (node) => node.nodeType === 1 && node.namespaceURI === DSIG_NAMESPACE && node.localName === name,
  );

const algorithmOf = (parent: DomElement, name: string) =>
  childElements(parent, name)[0]?.getAttribute('Algorithm') ?? '(none)';

/** Why the signature is not in the Peppol form, or undefined when it is. */
function formProblem(root: DomElement, signature: DomElement, rules: SmpSignatureRules): string | undefined {
  // Enveloped in the document element: a signature elsewhere could stand beside content it does not cover.
  if (signature.parentNode !== root) return 'its ds:Signature is not a child of SignedServiceMetadata';
  const signedInfo = childElements(signature, 'SignedInfo');
  if (signedInfo.length !== 1) return 'its ds:Signature does not have exactly one SignedInfo';
  const canonicalization = algorithmOf(signedInfo[0]!, 'CanonicalizationMethod');
  if (canonicalization !== INCLUSIVE_C14N && canonicalization !== EXCLUSIVE_C14N)
    return `it is canonicalised by ${canonicalization}, not C14N 1.0 (${INCLUSIVE_C14N}, or exclusive)`;
  const method = algorithmOf(signedInfo[0]!, 'SignatureMethod');
  if (method !== rules.signatureMethod)
    return `it is signed by ${method}, not ${rules.signatureMethod} as ${rules.name} prescribes`;
  const references = childElements(signedInfo[0]!, 'Reference');
  if (references.length !== 1) return `it signs ${references.length} references, not the one document`;
  const reference = references[0]!;
  // Signature wrapping: a reference to some other node would let unsigned content be read as signed.
  if (!reference.hasAttribute('URI') || reference.getAttribute('URI') !== '') {
    return `its reference is URI="${reference.getAttribute('URI') ?? ''}", not the whole document (URI="")`;
  }
  const transforms = childElements(reference, 'Transforms').flatMap((list) =>
    childElements(list, 'Transform').map((transform) => transform.getAttribute('Algorithm')),
  );
  if (transforms.length !== 1 || transforms[0] !== ENVELOPED_SIGNATURE)
    return `its transforms are ${transforms.join(', ') || '(none)'}, not the enveloped-signature transform alone`;
  const digest = algorithmOf(reference, 'DigestMethod');
  if (digest !== rules.digestMethod)
    return `its digest is ${digest}, not ${rules.digestMethod} as ${rules.name} prescribes`;
  return undefined;
}

function signerCertificate(signature: DomElement): X509Certificate | undefined {
  const data = childElements(signature, 'KeyInfo').flatMap((keyInfo) => childElements(keyInfo, 'X509Data'));
  const encoded = data.flatMap((entry) => childElements(entry, 'X509Certificate'))[0]?.textContent;
  if (!encoded) return undefined;
  try {
    return new X509Certificate(Buffer.from(encoded.replace(/\s+/g, ''), 'base64'));
  } catch {
    return undefined;
  }
}

/**
 * Whether a SignedServiceMetadata answer is signed, in the Peppol form, over
 * exactly this document, by a certificate issued by a CA of `trust` and valid
 * now. The caller reads the same text it passed here (parsed strictly apart,
 * domain/peppol/smp.ts), so what it reads is what was signed.
 */
export function verifyServiceMetadata(
  xml: string,
  trust: TrustAnchors,
  now: Date,
  rules: SmpSignatureRules = SMP_1_3,
): SignatureCheck {
  const refused = (problem: string, signer?: X509Certificate): SignatureCheck => ({
    verified: false,
    problem,
    ...(signer && { signerSubject: distinguishedName(signer.subject) }),
  });
  const parseErrors: string[] = [];
  const failed = (message: string) => {
    parseErrors.push(message);
  };
  const document = new DOMParser({
    errorHandler: { warning: () => undefined, error: failed, fatalError: failed },
  }).parseFromString(xml, 'text/xml');
  const root = document.documentElement;
  if (parseErrors.length > 0 || !root)
    return refused(`it is not well-formed XML: ${parseErrors[0] ?? 'no root element'}`);
  // SMP answers never carry a DTD; one could declare what two parsers read differently.
  if (document.doctype) return refused('it has a DOCTYPE');
  if (root.namespaceURI !== SMP_NAMESPACE || root.localName !== 'SignedServiceMetadata')
    return refused('it is not a SignedServiceMetadata');
  const signatures = Array.from(document.getElementsByTagNameNS(DSIG_NAMESPACE, 'Signature'));
  if (signatures.length === 0) return refused('it is not signed (no ds:Signature)');
  if (signatures.length > 1) return refused(`it has ${signatures.length} ds:Signature elements, not one`);
  const signature = signatures[0]!;
  const form = formProblem(root, signature, rules);
  if (form) return refused(form);

  const signer = signerCertificate(signature);
  if (!signer) return refused('its KeyInfo has no readable X509Certificate');
  const untrusted = trustProblem(signer, trust, now);
  if (untrusted) return refused(`its signer ${distinguishedName(signer.subject)} is not trusted: ${untrusted}`, signer);

  // The key is the certificate just checked, never one the KeyInfo could name some other way.
  const verifier = new SignedXml({ publicCert: signer.publicKey, getCertFromKeyInfo: () => null });
  verifier.loadSignature(signature);
  try {
    if (!verifier.checkSignature(xml))
      return refused('the document was changed after it was signed (its digest does not match)', signer);
  } catch (err) {
    return refused(`the signature does not verify: ${(err as Error).message}`, signer);
  }
  return { verified: true, signerSubject: distinguishedName(signer.subject), signerValidTo: new Date(signer.validTo) };
}
