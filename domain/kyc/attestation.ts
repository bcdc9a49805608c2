/**
 * The attestation a person signs when submitting a workspace for review. A
 * submission names the version it accepted; a new wording gets a new version,
 * and a submission of an older one is refused (kyc_attestation_version_mismatch),
 * so every signer has read the text in force.
 */

export const ATTESTATION_VERSION = '2026-08-26';

export const ATTESTATION_TEXT = [
  'By submitting this workspace for verification, I confirm that:',
  '1. I am a legal representative of the entity named in this submission, or I hold a written authority to act for it in this matter, a copy of which I have uploaded.',
  '2. The legal name, the enterprise number and every document uploaded are true, complete and current, and each document is a faithful copy of its original.',
  '3. The identity document uploaded belongs to the representative who signs this attestation.',
  '4. Every company of this workspace for which invoices or credit notes will be sent on the Peppol network is either the entity itself or has given it a written mandate to send and receive e-invoices on its behalf, and I will provide each such mandate on request.',
  '5. The workspace will send only genuine documents for real transactions, and will not use the service to mislead recipients, to evade tax or for any other unlawful purpose.',
  '6. I will inform the operator without delay when any of these facts changes, in particular the legal name, the representatives or a mandate.',
  'I understand that the operator relies on this attestation to register the companies of this workspace on the Peppol network, that live sending may be suspended when it proves untrue, and that a false statement may be reported to the competent authorities.',
].join('\n');
