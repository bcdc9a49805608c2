import type { ScreenWords } from '../i18n';

export const WEBHOOK_WORDS: ScreenWords<{
  webhooksIntro: string;
  url: string;
  description: string;
  events: string;
  everyEvent: string;
  add: string;
  newSecret: string;
  noWebhooks: string;
  enabled: string;
  disabled: string;
  environment: string;
  back: string;
  sendTest: string;
  testSent: string;
  enable: string;
  disable: string;
  remove: string;
  deliveries: string;
  show: string;
  allDeliveries: string;
  delivery_pending: string;
  delivery_succeeded: string;
  delivery_failed: string;
  deadLetters: string;
  noDeliveries: string;
  event: string;
  attempts: string;
  nextAttempt: string;
  redeliver: string;
  at: string;
  outcome: string;
  code: string;
  took: string;
  answer: string;
  noAnswer: string;
}> = {
  en: {
    webhooksIntro:
      'Your systems hear of each document’s progress at these addresses, in signed requests. Every delivery is listed with each of its attempts.',
    url: 'Address (URL)',
    description: 'Description',
    events: 'Events',
    everyEvent: 'Every event',
    add: 'Add the webhook',
    newSecret: 'Its signing secret. Copy it now: it is not shown again.',
    noWebhooks: 'No webhook yet.',
    enabled: 'Active',
    disabled: 'Switched off',
    environment: 'Environment',
    back: 'All webhooks',
    sendTest: 'Send a test event',
    testSent: 'A test event is on its way.',
    enable: 'Switch on',
    disable: 'Switch off',
    remove: 'Delete the webhook',
    deliveries: 'Deliveries',
    show: 'Show',
    allDeliveries: 'All deliveries',
    delivery_pending: 'Being delivered',
    delivery_succeeded: 'Delivered',
    delivery_failed: 'Failed',
    deadLetters: 'Failed (dead-letter queue)',
    noDeliveries: 'No deliveries.',
    event: 'Event',
    attempts: 'Attempts',
    nextAttempt: 'Next attempt',
    redeliver: 'Deliver again',
    at: 'Time',
    outcome: 'Outcome',
    code: 'HTTP status',
    took: 'Took',
    answer: 'Answer or error',
    noAnswer: 'no answer',
  },
  de: {
    webhooksIntro:
      'Ihre Systeme erfahren unter diesen Adressen in signierten Anfragen, wie es um jedes Dokument steht. Jede Zustellung ist mit jedem Versuch aufgeführt.',
    url: 'Adresse (URL)',
    description: 'Beschreibung',
    events: 'Ereignisse',
    everyEvent: 'Alle Ereignisse',
    add: 'Webhook hinzufügen',
    newSecret: 'Sein Signaturgeheimnis. Kopieren Sie es jetzt: Es wird nicht wieder angezeigt.',
    noWebhooks: 'Noch kein Webhook.',
    enabled: 'Aktiv',
    disabled: 'Ausgeschaltet',
    environment: 'Umgebung',
    back: 'Alle Webhooks',
    sendTest: 'Testereignis senden',
    testSent: 'Ein Testereignis ist unterwegs.',
    enable: 'Einschalten',
    disable: 'Ausschalten',
    remove: 'Webhook löschen',
    deliveries: 'Zustellungen',
    show: 'Anzeigen',
    allDeliveries: 'Alle Zustellungen',
    delivery_pending: 'Wird zugestellt',
    delivery_succeeded: 'Zugestellt',
    delivery_failed: 'Fehlgeschlagen',
    deadLetters: 'Fehlgeschlagen (Dead-Letter-Queue)',
    noDeliveries: 'Keine Zustellungen.',
    event: 'Ereignis',
    attempts: 'Versuche',
    nextAttempt: 'Nächster Versuch',
    redeliver: 'Erneut zustellen',
    at: 'Zeit',
    outcome: 'Ergebnis',
    code: 'HTTP-Status',
    took: 'Dauer',
    answer: 'Antwort oder Fehler',
    noAnswer: 'keine Antwort',
  },
  fr: {
    webhooksIntro:
      'Vos systèmes apprennent à ces adresses, par des requêtes signées, où en est chaque document. Chaque livraison est listée avec chacune de ses tentatives.',
    url: 'Adresse (URL)',
    description: 'Description',
    events: 'Événements',
    everyEvent: 'Tous les événements',
    add: 'Ajouter le webhook',
    newSecret: 'Son secret de signature. Copiez-le maintenant : il ne sera plus affiché.',
    noWebhooks: 'Aucun webhook pour l’instant.',
    enabled: 'Actif',
    disabled: 'Désactivé',
    environment: 'Environnement',
    back: 'Tous les webhooks',
    sendTest: 'Envoyer un événement de test',
    testSent: 'Un événement de test est en route.',
    enable: 'Activer',
    disable: 'Désactiver',
    remove: 'Supprimer le webhook',
    deliveries: 'Livraisons',
    show: 'Afficher',
    allDeliveries: 'Toutes les livraisons',
    delivery_pending: 'En cours de livraison',
    delivery_succeeded: 'Livrée',
    delivery_failed: 'Échouée',
    deadLetters: 'Échouées (file des lettres mortes)',
    noDeliveries: 'Aucune livraison.',
    event: 'Événement',
    attempts: 'Tentatives',
    nextAttempt: 'Prochaine tentative',
    redeliver: 'Livrer à nouveau',
    at: 'Heure',
    outcome: 'Résultat',
    code: 'Statut HTTP',
    took: 'Durée',
    answer: 'Réponse ou erreur',
    noAnswer: 'pas de réponse',
  },
  nl: {
    webhooksIntro:
      'Uw systemen horen op deze adressen, in ondertekende verzoeken, hoe het met elk document gaat. Elke levering staat hier met elke poging.',
    url: 'Adres (URL)',
    description: 'Omschrijving',
    events: 'Gebeurtenissen',
    everyEvent: 'Alle gebeurtenissen',
    add: 'Webhook toevoegen',
    newSecret: 'Zijn ondertekeningsgeheim. Kopieer het nu: het wordt niet opnieuw getoond.',
    noWebhooks: 'Nog geen webhook.',
    enabled: 'Actief',
    disabled: 'Uitgeschakeld',
    environment: 'Omgeving',
    back: 'Alle webhooks',
    sendTest: 'Testgebeurtenis versturen',
    testSent: 'Een testgebeurtenis is onderweg.',
    enable: 'Inschakelen',
    disable: 'Uitschakelen',
    remove: 'Webhook verwijderen',
    deliveries: 'Leveringen',
    show: 'Tonen',
    allDeliveries: 'Alle leveringen',
    delivery_pending: 'Wordt geleverd',
    delivery_succeeded: 'Geleverd',
    delivery_failed: 'Mislukt',
    deadLetters: 'Mislukt (dead-letterwachtrij)',
    noDeliveries: 'Geen leveringen.',
    event: 'Gebeurtenis',
    attempts: 'Pogingen',
    nextAttempt: 'Volgende poging',
    redeliver: 'Opnieuw leveren',
    at: 'Tijdstip',
    outcome: 'Resultaat',
    code: 'HTTP-status',
    took: 'Duur',
    answer: 'Antwoord of fout',
    noAnswer: 'geen antwoord',
  },
};

/** The words one screen of these is given, in the reader's language. */
export type WebhookWords = (typeof WEBHOOK_WORDS)['en'];

/** A webhook's events as a reader sees them: `*` is every event. */
export const eventsText = (events: readonly string[], words: WebhookWords): string =>
  events.map((kind) => (kind === '*' ? words.everyEvent : kind)).join(', ');
