import { SaxesParser } from 'saxes';

import type { Violation } from '../documents/violation';

/**
 * What a UBL document the client made may carry, beyond what the official
 * rules judge, before we store it and send it under our name byte for byte:
 * what the JSON path could not produce is refused, so the two ways in send
 * the same kind of document.
 *
 * - No processing instruction but the XML declaration: one is an instruction
 *   to whatever reads the document next (`<?php …?>`, an `xml-stylesheet`
 *   fetched from anywhere), and UBL needs none.
 * - No `xsi:schemaLocation` (or `noNamespaceSchemaLocation`): a location
 *   outside tells a receiver's parser where to fetch a schema from.
 * - Free text held to the JSON input's longest bound (the document note);
 *   embedded attachments are bounded by their own rules.
 * - An electronic address (`cbc:EndpointID`) with no white space, as a
 *   Peppol participant id is written (Policy for use of Identifiers).
 *
 * One streaming pass; every finding is a violation naming where it is.
 */

/**
 * The longest free text a JSON document takes (its `note`): no element's text of a client-made UBL is longer.
 * @internal
 */
export const MAX_FREE_TEXT = 2000;

const BINARY_OBJECT = /BinaryObject$/;
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const SCHEMA_LOCATIONS = new Set(['schemaLocation', 'noNamespaceSchemaLocation']);

interface OpenElement {
  /** Where it is: `cac:PaymentTerms/cbc:Note`, with `[n]` when a sibling has its name too. */
  path: string;
  name: string;
  text: string;
  /** How many children of each name it has opened so far. */
  children: Map<string, number>;
}

function pathOf(parent: OpenElement | undefined, name: string): string {
  if (!parent) return '';
  const seen = (parent.children.get(name) ?? 0) + 1;
  parent.children.set(name, seen);
  const step = seen > 1 ? `${name}[${seen}]` : name;
  return parent.path ? `${parent.path}/${step}` : step;
}

function closedElementViolations(element: OpenElement): Violation[] {
  const where = element.path || element.name;
  if (element.name.endsWith(':EndpointID') && /\s/.test(element.text)) {
    return [
      {
        path: where,
        rule: null,
        message: `The electronic address "${element.text}" holds white space; a Peppol participant id is written without any.`,
      },
    ];
  }
  // An element with children holds their indentation, not free text.
  if (element.children.size === 0 && element.text.length > MAX_FREE_TEXT && !BINARY_OBJECT.test(element.name)) {
    return [
      {
        path: where,
        rule: null,
        message: `The text holds more than ${MAX_FREE_TEXT} characters; free text is at most ${MAX_FREE_TEXT}, as in a JSON document.`,
      },
    ];
  }
  return [];
}

/** Every reason the well-formed UBL `xml` may not be sent as it is (the bounds were measured before). */
export function sendableXmlViolations(xml: string): Violation[] {
  const violations: Violation[] = [];
  const open: OpenElement[] = [];
  const parser = new SaxesParser({ xmlns: true, position: true });
  parser.on('processinginstruction', ({ target }) => {
    violations.push({
      path: `processing-instruction('${target}')`,
      rule: null,
      message: `A processing instruction <?${target} …?> (line ${parser.line}); a UBL document carries none but the XML declaration.`,
    });
  });
  parser.on('opentag', (tag) => {
    const parent = open.at(-1);
    const element: OpenElement = { path: pathOf(parent, tag.name), name: tag.name, text: '', children: new Map() };
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.uri === XSI && SCHEMA_LOCATIONS.has(attribute.local)) {
        violations.push({
          path: `${element.path || tag.name}/@${attribute.name}`,
          rule: null,
          message: `${attribute.name} points a reader at a schema to fetch; a UBL document sent on Peppol names none.`,
        });
      }
    }
    open.push(element);
  });
  const addText = (text: string) => {
    const element = open.at(-1);
    // Past the bound the rest is not kept: that it was passed is what the message says.
    if (element && element.text.length <= MAX_FREE_TEXT) element.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    const element = open.pop();
    if (element) violations.push(...closedElementViolations(element));
  });
  parser.write(xml).close();
  return violations;
}
