import type { ScreenWords } from '../i18n';

/** The words of the workspace's screens: companies, going live, credits and usage, members, the audit log. */
export const WORKSPACE_WORDS: ScreenWords<{
  companies: string;
  companiesIntro: string;
  addCompany: string;
  name: string;
  country: string;
  taxId: string;
  registrationId: string;
  peppolId: string;
  email: string;
  iban: string;
  street: string;
  city: string;
  postalCode: string;
  save: string;
  saved: string;
  receiving: string;
  receiving_none: string;
  receiving_registering: string;
  receiving_registered: string;
  receiving_unregistered: string;
  receiving_awaiting_review: string;
  receiving_failed: string;
  verifiedLive: string;
  sandboxOnly: string;
  goingLive: string;
  goingLiveIntro: string;
  kyc_none: string;
  kyc_pending: string;
  kyc_approved: string;
  kyc_rejected: string;
  rejectedBecause: string;
  documentsUploaded: string;
  stillNeeded: string;
  docType: string;
  doc_registry_extract: string;
  doc_representative_id: string;
  doc_authority_proof: string;
  doc_mandate: string;
  upload: string;
  file: string;
  attestation: string;
  legalName: string;
  enterpriseNumber: string;
  yourName: string;
  yourRole: string;
  attest: string;
  submit: string;
  submittedAt: string;
  usage: string;
  balance: string;
  price: string;
  days: string;
  apiCalls: string;
  sent: string;
  received: string;
  day: string;
  members: string;
  role: string;
  role_owner: string;
  role_admin: string;
  role_member: string;
  joined: string;
  invite: string;
  inviteIntro: string;
  remove: string;
  audit: string;
  auditIntro: string;
  action: string;
  actor: string;
  target: string;
  when: string;
}> = {
  en: {
    companies: 'Companies',
    companiesIntro:
      'The companies this workspace sends and receives for. A Peppol id set or changed is reviewed before it is used live.',
    addCompany: 'Add a company',
    name: 'Legal name',
    country: 'Country',
    taxId: 'VAT number',
    registrationId: 'Registration number',
    peppolId: 'Peppol id',
    email: 'Email',
    iban: 'IBAN',
    street: 'Street',
    city: 'City',
    postalCode: 'Postal code',
    save: 'Save',
    saved: 'Saved.',
    receiving: 'Receiving on Peppol',
    receiving_none: 'Not receiving (no Peppol id, or sandbox)',
    receiving_registering: 'Being registered',
    receiving_registered: 'Registered: receives documents',
    receiving_unregistered: 'Unregistered',
    receiving_awaiting_review: 'Waiting for our review of the participant',
    receiving_failed: 'Registration failed',
    verifiedLive: 'Verified for live',
    sandboxOnly: 'Sandbox only',
    goingLive: 'Going live',
    goingLiveIntro:
      'To send on the Peppol network, tell us who the company is and who you are, with the documents that show it. We review it, usually within a working day.',
    kyc_none: 'Not submitted yet',
    kyc_pending: 'Submitted: we are reviewing it',
    kyc_approved: 'Approved: the workspace is live',
    kyc_rejected: 'Not approved',
    rejectedBecause: 'Why',
    documentsUploaded: 'Documents uploaded',
    stillNeeded: 'Still needed',
    docType: 'Kind of document',
    doc_registry_extract: 'Extract from the company register',
    doc_representative_id: 'Identity document of the representative',
    doc_authority_proof: 'Proof of the authority to represent the company',
    doc_mandate: 'Mandate from a company you invoice for',
    upload: 'Upload',
    file: 'File (PDF, PNG or JPEG)',
    attestation: 'Attestation',
    legalName: 'The company’s legal name',
    enterpriseNumber: 'Its enterprise number',
    yourName: 'Your name',
    yourRole: 'Your role in the company',
    attest: 'I attest the above, as written here.',
    submit: 'Submit for review',
    submittedAt: 'Submitted',
    usage: 'Credits and usage',
    balance: 'Credit balance',
    price: 'Price of a live document',
    days: 'Last 30 days',
    apiCalls: 'API calls',
    sent: 'Documents sent',
    received: 'Documents received',
    day: 'Day',
    members: 'Members',
    role: 'Role',
    role_owner: 'Owner',
    role_admin: 'Administrator',
    role_member: 'Member',
    joined: 'Joined',
    invite: 'Add the member',
    inviteIntro: 'Add someone who has an account by its email address.',
    remove: 'Remove',
    audit: 'Audit log',
    auditIntro: 'Every change made in this workspace, by whom, newest first.',
    action: 'Action',
    actor: 'By',
    target: 'On',
    when: 'When',
  },
  de: {
    companies: 'Unternehmen',
    companiesIntro:
      'Die Unternehmen, für die dieser Arbeitsbereich sendet und empfängt. Eine neue oder geänderte Peppol-ID wird geprüft, bevor sie live gilt.',
    addCompany: 'Unternehmen hinzufügen',
    name: 'Firmenname',
    country: 'Land',
    taxId: 'USt-IdNr.',
    registrationId: 'Registernummer',
    peppolId: 'Peppol-ID',
    email: 'E-Mail',
    iban: 'IBAN',
    street: 'Straße',
    city: 'Ort',
    postalCode: 'Postleitzahl',
    save: 'Speichern',
    saved: 'Gespeichert.',
    receiving: 'Empfang über Peppol',
    receiving_none: 'Kein Empfang (keine Peppol-ID oder Sandbox)',
    receiving_registering: 'Wird registriert',
    receiving_registered: 'Registriert: empfängt Dokumente',
    receiving_unregistered: 'Abgemeldet',
    receiving_awaiting_review: 'Wartet auf unsere Prüfung des Teilnehmers',
    receiving_failed: 'Registrierung fehlgeschlagen',
    verifiedLive: 'Für live geprüft',
    sandboxOnly: 'Nur Sandbox',
    goingLive: 'Live gehen',
    goingLiveIntro:
      'Um im Peppol-Netz zu senden, sagen Sie uns, wer das Unternehmen ist und wer Sie sind, mit den Nachweisen dafür. Wir prüfen das, meist innerhalb eines Werktags.',
    kyc_none: 'Noch nicht eingereicht',
    kyc_pending: 'Eingereicht: wir prüfen',
    kyc_approved: 'Genehmigt: der Arbeitsbereich ist live',
    kyc_rejected: 'Nicht genehmigt',
    rejectedBecause: 'Grund',
    documentsUploaded: 'Hochgeladene Nachweise',
    stillNeeded: 'Noch erforderlich',
    docType: 'Art des Nachweises',
    doc_registry_extract: 'Handelsregisterauszug',
    doc_representative_id: 'Ausweis der vertretenden Person',
    doc_authority_proof: 'Nachweis der Vertretungsbefugnis',
    doc_mandate: 'Vollmacht eines Unternehmens, für das Sie fakturieren',
    upload: 'Hochladen',
    file: 'Datei (PDF, PNG oder JPEG)',
    attestation: 'Erklärung',
    legalName: 'Firmenname des Unternehmens',
    enterpriseNumber: 'Seine Unternehmensnummer',
    yourName: 'Ihr Name',
    yourRole: 'Ihre Funktion im Unternehmen',
    attest: 'Ich bestätige das Obige, wie hier geschrieben.',
    submit: 'Zur Prüfung einreichen',
    submittedAt: 'Eingereicht',
    usage: 'Guthaben und Nutzung',
    balance: 'Guthaben',
    price: 'Preis eines Live-Dokuments',
    days: 'Letzte 30 Tage',
    apiCalls: 'API-Aufrufe',
    sent: 'Gesendete Dokumente',
    received: 'Empfangene Dokumente',
    day: 'Tag',
    members: 'Mitglieder',
    role: 'Rolle',
    role_owner: 'Inhaber',
    role_admin: 'Administrator',
    role_member: 'Mitglied',
    joined: 'Beigetreten',
    invite: 'Mitglied hinzufügen',
    inviteIntro: 'Fügen Sie jemanden mit Konto über seine E-Mail-Adresse hinzu.',
    remove: 'Entfernen',
    audit: 'Protokoll',
    auditIntro: 'Jede Änderung in diesem Arbeitsbereich, von wem, neueste zuerst.',
    action: 'Aktion',
    actor: 'Von',
    target: 'An',
    when: 'Wann',
  },
  fr: {
    companies: 'Entreprises',
    companiesIntro:
      'Les entreprises pour lesquelles cet espace envoie et reçoit. Un identifiant Peppol ajouté ou modifié est vérifié avant d’être utilisé en production.',
    addCompany: 'Ajouter une entreprise',
    name: 'Dénomination',
    country: 'Pays',
    taxId: 'Numéro de TVA',
    registrationId: 'Numéro d’entreprise',
    peppolId: 'Identifiant Peppol',
    email: 'E-mail',
    iban: 'IBAN',
    street: 'Rue',
    city: 'Ville',
    postalCode: 'Code postal',
    save: 'Enregistrer',
    saved: 'Enregistré.',
    receiving: 'Réception sur Peppol',
    receiving_none: 'Pas de réception (pas d’identifiant Peppol, ou sandbox)',
    receiving_registering: 'Enregistrement en cours',
    receiving_registered: 'Enregistrée : reçoit des documents',
    receiving_unregistered: 'Désenregistrée',
    receiving_awaiting_review: 'En attente de notre vérification du participant',
    receiving_failed: 'L’enregistrement a échoué',
    verifiedLive: 'Vérifiée pour la production',
    sandboxOnly: 'Sandbox seulement',
    goingLive: 'Passer en production',
    goingLiveIntro:
      'Pour envoyer sur le réseau Peppol, dites-nous qui est l’entreprise et qui vous êtes, avec les pièces qui le montrent. Nous vérifions, en général sous un jour ouvrable.',
    kyc_none: 'Pas encore soumis',
    kyc_pending: 'Soumis : en cours de vérification',
    kyc_approved: 'Approuvé : l’espace est en production',
    kyc_rejected: 'Non approuvé',
    rejectedBecause: 'Pourquoi',
    documentsUploaded: 'Pièces déposées',
    stillNeeded: 'Encore nécessaire',
    docType: 'Type de pièce',
    doc_registry_extract: 'Extrait du registre des entreprises',
    doc_representative_id: 'Pièce d’identité du représentant',
    doc_authority_proof: 'Preuve du pouvoir de représentation',
    doc_mandate: 'Mandat d’une entreprise pour laquelle vous facturez',
    upload: 'Déposer',
    file: 'Fichier (PDF, PNG ou JPEG)',
    attestation: 'Attestation',
    legalName: 'Dénomination de l’entreprise',
    enterpriseNumber: 'Son numéro d’entreprise',
    yourName: 'Votre nom',
    yourRole: 'Votre fonction dans l’entreprise',
    attest: 'J’atteste ce qui précède, tel qu’écrit ici.',
    submit: 'Soumettre pour vérification',
    submittedAt: 'Soumis le',
    usage: 'Crédits et utilisation',
    balance: 'Solde de crédits',
    price: 'Prix d’un document en production',
    days: '30 derniers jours',
    apiCalls: 'Appels API',
    sent: 'Documents envoyés',
    received: 'Documents reçus',
    day: 'Jour',
    members: 'Membres',
    role: 'Rôle',
    role_owner: 'Propriétaire',
    role_admin: 'Administrateur',
    role_member: 'Membre',
    joined: 'Arrivé le',
    invite: 'Ajouter le membre',
    inviteIntro: 'Ajoutez une personne qui a un compte, par son adresse e-mail.',
    remove: 'Retirer',
    audit: 'Journal d’audit',
    auditIntro: 'Chaque modification faite dans cet espace, par qui, la plus récente d’abord.',
    action: 'Action',
    actor: 'Par',
    target: 'Sur',
    when: 'Quand',
  },
  nl: {
    companies: 'Bedrijven',
    companiesIntro:
      'De bedrijven waarvoor deze werkruimte verzendt en ontvangt. Een nieuw of gewijzigd Peppol-id wordt nagekeken voor het live gebruikt wordt.',
    addCompany: 'Bedrijf toevoegen',
    name: 'Officiële naam',
    country: 'Land',
    taxId: 'Btw-nummer',
    registrationId: 'Ondernemingsnummer',
    peppolId: 'Peppol-id',
    email: 'E-mail',
    iban: 'IBAN',
    street: 'Straat',
    city: 'Gemeente',
    postalCode: 'Postcode',
    save: 'Opslaan',
    saved: 'Opgeslagen.',
    receiving: 'Ontvangst via Peppol',
    receiving_none: 'Geen ontvangst (geen Peppol-id, of sandbox)',
    receiving_registering: 'Wordt geregistreerd',
    receiving_registered: 'Geregistreerd: ontvangt documenten',
    receiving_unregistered: 'Uitgeschreven',
    receiving_awaiting_review: 'Wacht op onze controle van de deelnemer',
    receiving_failed: 'Registratie mislukt',
    verifiedLive: 'Geverifieerd voor live',
    sandboxOnly: 'Alleen sandbox',
    goingLive: 'Live gaan',
    goingLiveIntro:
      'Om op het Peppol-netwerk te verzenden, vertel ons wie het bedrijf is en wie u bent, met de stukken die het tonen. We controleren het, meestal binnen een werkdag.',
    kyc_none: 'Nog niet ingediend',
    kyc_pending: 'Ingediend: we controleren het',
    kyc_approved: 'Goedgekeurd: de werkruimte is live',
    kyc_rejected: 'Niet goedgekeurd',
    rejectedBecause: 'Waarom',
    documentsUploaded: 'Opgeladen stukken',
    stillNeeded: 'Nog nodig',
    docType: 'Soort stuk',
    doc_registry_extract: 'Uittreksel uit het ondernemingsregister',
    doc_representative_id: 'Identiteitsbewijs van de vertegenwoordiger',
    doc_authority_proof: 'Bewijs van vertegenwoordigingsbevoegdheid',
    doc_mandate: 'Mandaat van een bedrijf waarvoor u factureert',
    upload: 'Opladen',
    file: 'Bestand (PDF, PNG of JPEG)',
    attestation: 'Verklaring',
    legalName: 'Officiële naam van het bedrijf',
    enterpriseNumber: 'Zijn ondernemingsnummer',
    yourName: 'Uw naam',
    yourRole: 'Uw functie in het bedrijf',
    attest: 'Ik verklaar het bovenstaande, zoals het hier staat.',
    submit: 'Indienen ter controle',
    submittedAt: 'Ingediend',
    usage: 'Tegoed en gebruik',
    balance: 'Tegoed',
    price: 'Prijs van een live document',
    days: 'Laatste 30 dagen',
    apiCalls: 'API-oproepen',
    sent: 'Verzonden documenten',
    received: 'Ontvangen documenten',
    day: 'Dag',
    members: 'Leden',
    role: 'Rol',
    role_owner: 'Eigenaar',
    role_admin: 'Beheerder',
    role_member: 'Lid',
    joined: 'Lid sinds',
    invite: 'Lid toevoegen',
    inviteIntro: 'Voeg iemand met een account toe via zijn e-mailadres.',
    remove: 'Verwijderen',
    audit: 'Auditlogboek',
    auditIntro: 'Elke wijziging in deze werkruimte, door wie, nieuwste eerst.',
    action: 'Actie',
    actor: 'Door',
    target: 'Op',
    when: 'Wanneer',
  },
};

/** The words one screen of these is given, in the reader's language. */
export type WorkspaceWords = (typeof WORKSPACE_WORDS)['en'];
