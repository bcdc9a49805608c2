/**
 * The document lifecycle, whole: every status, every move between them, the
 * history step each move writes and the event it raises. Nothing else in the
 * code names a status or a move; the store, the services, the workflow and
 * the API all read them from here.
 *
 *   (new) ──accept──▶ queued ──send──▶ sending ──deliver──▶ delivered
 *                        │                │  ▲
 *                        │                └──┘ retry (an attempt failed; another follows)
 *                        └──────fail──────┴──────────▶ failed
 */

export const DOCUMENT_STATUSES = ['queued', 'sending', 'delivered', 'failed'] as const;

/** A received document's one status: it is stored, validated and converted, and never moves. */
export const RECEIVED_STATUS = 'received';
/** The event a received document raises once it is filed. */
export const RECEIVED_EVENT = 'document.received';
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const DOCUMENT_EVENT_TYPES = [
  'document.queued',
  'document.sending',
  'document.retry',
  'document.delivered',
  'document.failed',
] as const;
type DocumentEventType = (typeof DOCUMENT_EVENT_TYPES)[number];

export interface Transition {
  /** Statuses the move starts from; empty for the move that creates the document. */
  from: readonly DocumentStatus[];
  to: DocumentStatus;
  event: DocumentEventType;
  /**
   * Moves that can happen once per document share a slot, so the store can
   * refuse a second one with a unique key: a document is delivered or failed,
   * never both. A retry happens once per attempt.
   */
  slot: 'accepted' | 'sending' | 'final' | 'attempt';
}

export const TRANSITIONS = {
  accept: { from: [], to: 'queued', event: 'document.queued', slot: 'accepted' },
  send: { from: ['queued'], to: 'sending', event: 'document.sending', slot: 'sending' },
  retry: { from: ['sending'], to: 'sending', event: 'document.retry', slot: 'attempt' },
  deliver: { from: ['sending'], to: 'delivered', event: 'document.delivered', slot: 'final' },
  fail: { from: ['queued', 'sending'], to: 'failed', event: 'document.failed', slot: 'final' },
} as const satisfies Record<string, Transition>;

export type DocumentMove = keyof typeof TRANSITIONS;

/** History steps as clients read them: the move, named by the status it leads to (retry keeps its own name). */
export const HISTORY_STEPS = [
  'created',
  'validated',
  'queued',
  'sending',
  'retry',
  'delivered',
  'failed',
  'response_received',
  'mls_received',
] as const;
export type HistoryStep = (typeof HISTORY_STEPS)[number];

/** Whether `move` may start from `status` (a move to the status a document already has is a repeat, not a move). */
export function allows(move: DocumentMove, status: DocumentStatus | typeof RECEIVED_STATUS): boolean {
  return (TRANSITIONS[move].from as readonly string[]).includes(status);
}

/**
 * The key that makes a move happen at most once: two moves with the same key
 * are the same move (a retried activity), and two different moves of one slot
 * (delivered and failed) cannot both be recorded.
 */
export function moveKey(documentId: string, move: DocumentMove, attempt?: number): string {
  const { slot } = TRANSITIONS[move];
  return slot === 'attempt' ? `${documentId}:attempt:${attempt ?? 0}` : `${documentId}:${slot}`;
}

export class IllegalMoveError extends Error {
  override name = 'IllegalMoveError';
  constructor(
    readonly documentId: string,
    readonly move: DocumentMove,
    readonly current: DocumentStatus | typeof RECEIVED_STATUS,
  ) {
    super(
      `document ${documentId} is ${current}; "${move}" moves only from ${TRANSITIONS[move].from.join(' or ') || '(new)'}`,
    );
  }
}
