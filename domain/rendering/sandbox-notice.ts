import type { Environment } from '../environment';

/**
 * What every reading of a sandbox document says: sandbox keys are free and nobody checks who holds
 * them, so the seller a sandbox document names is whatever its sender wrote. Plain ASCII, so the
 * renderer's stamp (the validator's Notice.java, on every page of a PDF) draws it in any font and a text
 * extractor reads it back whole.
 */
export const SANDBOX_NOTICE =
  "SANDBOX - the sender's identity has not been verified. This document was not sent on the Peppol network.";

/** The notice a rendering of a document in `environment` carries: the sandbox's, and none for live documents, whose seller is the KYC-verified company. */
export const renderingNoticeFor = (environment: Environment): string | undefined =>
  environment === 'sandbox' ? SANDBOX_NOTICE : undefined;
