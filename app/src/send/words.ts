import type { ScreenWords } from '../i18n';

export const SEND_WORDS: ScreenWords<{
  sendIntro: string;
  kind: string;
  number: string;
  issueDate: string;
  dueDate: string;
  currency: string;
  buyerReference: string;
  corrects: string;
  buyer: string;
  buyerName: string;
  peppolId: string;
  lookUp: string;
  canReceive: string;
  cannotReceive: string;
  notOnPeppol: string;
  taxId: string;
  email: string;
  street: string;
  city: string;
  postalCode: string;
  country: string;
  lines: string;
  description: string;
  quantity: string;
  unitPrice: string;
  taxRate: string;
  addLine: string;
  removeLine: string;
  totals: string;
  net: string;
  vat: string;
  payable: string;
  checking: string;
  ready: string;
  problems: string;
  submit: string;
  dropTitle: string;
  dropIntro: string;
  chooseFile: string;
}> = {
  en: {
    sendIntro:
      'Fill in the invoice; it is checked against the Peppol rules as you type. The seller is the company chosen.',
    kind: 'Kind',
    number: 'Number',
    issueDate: 'Issue date',
    dueDate: 'Due date',
    currency: 'Currency',
    buyerReference: 'Buyer reference',
    corrects: 'Number of the invoice it corrects',
    buyer: 'Buyer',
    buyerName: 'Name',
    peppolId: 'Peppol id',
    lookUp: 'Look up on Peppol',
    canReceive: 'Receives invoices and credit notes on Peppol.',
    cannotReceive: 'Is on Peppol but does not receive this kind of document.',
    notOnPeppol: 'Not found on Peppol.',
    taxId: 'VAT number',
    email: 'Email',
    street: 'Street',
    city: 'City',
    postalCode: 'Postal code',
    country: 'Country (2 letters)',
    lines: 'Lines',
    description: 'Description',
    quantity: 'Quantity',
    unitPrice: 'Unit price',
    taxRate: 'VAT %',
    addLine: 'Add a line',
    removeLine: 'Remove line',
    totals: 'Totals',
    net: 'Net',
    vat: 'VAT',
    payable: 'Amount due',
    checking: 'Checking…',
    ready: 'Ready to send: the Peppol rules find nothing wrong.',
    problems: 'To fix before sending',
    submit: 'Send the document',
    dropTitle: 'Or send a UBL file',
    dropIntro: 'A Peppol BIS Billing 3.0 invoice or credit note (or a CII invoice) whose seller is the company chosen.',
    chooseFile: 'Choose or drop an XML file',
  },
  de: {
    sendIntro:
      'Füllen Sie die Rechnung aus; sie wird bei der Eingabe gegen die Peppol-Regeln geprüft. Verkäufer ist das gewählte Unternehmen.',
    kind: 'Art',
    number: 'Nummer',
    issueDate: 'Rechnungsdatum',
    dueDate: 'Fälligkeitsdatum',
    currency: 'Währung',
    buyerReference: 'Käuferreferenz',
    corrects: 'Nummer der korrigierten Rechnung',
    buyer: 'Käufer',
    buyerName: 'Name',
    peppolId: 'Peppol-ID',
    lookUp: 'In Peppol nachschlagen',
    canReceive: 'Empfängt Rechnungen und Gutschriften über Peppol.',
    cannotReceive: 'Ist in Peppol, empfängt diese Dokumentart aber nicht.',
    notOnPeppol: 'In Peppol nicht gefunden.',
    taxId: 'USt-IdNr.',
    email: 'E-Mail',
    street: 'Straße',
    city: 'Ort',
    postalCode: 'Postleitzahl',
    country: 'Land (2 Buchstaben)',
    lines: 'Positionen',
    description: 'Beschreibung',
    quantity: 'Menge',
    unitPrice: 'Einzelpreis',
    taxRate: 'USt. %',
    addLine: 'Position hinzufügen',
    removeLine: 'Position entfernen',
    totals: 'Summen',
    net: 'Netto',
    vat: 'USt.',
    payable: 'Zahlbetrag',
    checking: 'Wird geprüft…',
    ready: 'Bereit zum Senden: Die Peppol-Regeln finden keinen Fehler.',
    problems: 'Vor dem Senden zu beheben',
    submit: 'Dokument senden',
    dropTitle: 'Oder eine UBL-Datei senden',
    dropIntro:
      'Eine Rechnung oder Gutschrift nach Peppol BIS Billing 3.0 (oder eine CII-Rechnung), deren Verkäufer das gewählte Unternehmen ist.',
    chooseFile: 'XML-Datei wählen oder hierher ziehen',
  },
  fr: {
    sendIntro:
      'Remplissez la facture ; elle est vérifiée selon les règles Peppol pendant la saisie. Le vendeur est l’entreprise choisie.',
    kind: 'Type',
    number: 'Numéro',
    issueDate: 'Date d’émission',
    dueDate: 'Date d’échéance',
    currency: 'Devise',
    buyerReference: 'Référence de l’acheteur',
    corrects: 'Numéro de la facture corrigée',
    buyer: 'Acheteur',
    buyerName: 'Nom',
    peppolId: 'Identifiant Peppol',
    lookUp: 'Rechercher dans Peppol',
    canReceive: 'Reçoit factures et notes de crédit sur Peppol.',
    cannotReceive: 'Est sur Peppol mais ne reçoit pas ce type de document.',
    notOnPeppol: 'Introuvable sur Peppol.',
    taxId: 'Numéro de TVA',
    email: 'E-mail',
    street: 'Rue',
    city: 'Ville',
    postalCode: 'Code postal',
    country: 'Pays (2 lettres)',
    lines: 'Lignes',
    description: 'Description',
    quantity: 'Quantité',
    unitPrice: 'Prix unitaire',
    taxRate: 'TVA %',
    addLine: 'Ajouter une ligne',
    removeLine: 'Supprimer la ligne',
    totals: 'Totaux',
    net: 'Hors TVA',
    vat: 'TVA',
    payable: 'Montant dû',
    checking: 'Vérification…',
    ready: 'Prêt à envoyer : les règles Peppol ne trouvent rien à redire.',
    problems: 'À corriger avant l’envoi',
    submit: 'Envoyer le document',
    dropTitle: 'Ou envoyer un fichier UBL',
    dropIntro:
      'Une facture ou note de crédit Peppol BIS Billing 3.0 (ou une facture CII) dont le vendeur est l’entreprise choisie.',
    chooseFile: 'Choisir ou déposer un fichier XML',
  },
  nl: {
    sendIntro:
      'Vul de factuur in; ze wordt tijdens het typen getoetst aan de Peppol-regels. De verkoper is het gekozen bedrijf.',
    kind: 'Soort',
    number: 'Nummer',
    issueDate: 'Factuurdatum',
    dueDate: 'Vervaldatum',
    currency: 'Munt',
    buyerReference: 'Referentie van de koper',
    corrects: 'Nummer van de gecorrigeerde factuur',
    buyer: 'Koper',
    buyerName: 'Naam',
    peppolId: 'Peppol-id',
    lookUp: 'Opzoeken in Peppol',
    canReceive: 'Ontvangt facturen en creditnota’s via Peppol.',
    cannotReceive: 'Staat op Peppol maar ontvangt dit soort document niet.',
    notOnPeppol: 'Niet gevonden op Peppol.',
    taxId: 'Btw-nummer',
    email: 'E-mail',
    street: 'Straat',
    city: 'Gemeente',
    postalCode: 'Postcode',
    country: 'Land (2 letters)',
    lines: 'Regels',
    description: 'Omschrijving',
    quantity: 'Aantal',
    unitPrice: 'Eenheidsprijs',
    taxRate: 'Btw %',
    addLine: 'Regel toevoegen',
    removeLine: 'Regel verwijderen',
    totals: 'Totalen',
    net: 'Excl. btw',
    vat: 'Btw',
    payable: 'Te betalen',
    checking: 'Wordt gecontroleerd…',
    ready: 'Klaar om te verzenden: de Peppol-regels vinden niets fout.',
    problems: 'Te verbeteren vóór verzending',
    submit: 'Document verzenden',
    dropTitle: 'Of een UBL-bestand verzenden',
    dropIntro:
      'Een Peppol BIS Billing 3.0-factuur of -creditnota (of een CII-factuur) met het gekozen bedrijf als verkoper.',
    chooseFile: 'Kies of sleep een XML-bestand',
  },
};

/** The words one screen of these is given, in the reader's language. */
export type SendWords = (typeof SEND_WORDS)['en'];
