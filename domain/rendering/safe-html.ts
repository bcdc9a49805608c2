import { createHash } from 'node:crypto';

import { defaultTreeAdapter as tree, parse, serialize, type DefaultTreeAdapterMap } from 'parse5';

import { decodeBase64 } from '../documents/attachments';

type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

/**
 * The one script a rendered page runs, in place of the stylesheet's: it switches the tabs. KoSIT's
 * stylesheet wires its tabs and attachments through inline handlers, and writes document values into
 * them (BT-122 into an `onClick`) and into links (BT-124 into an `href`); those handlers are all
 * dropped, so this script attaches its own listeners. Fixed text: its hash is the page's only
 * `script-src`, so nothing a document holds can run beside it.
 * @internal
 */
export const VIEWER_SCRIPT = `(function () {
  var panels = { menueUebersicht: 'uebersicht', menueDetails: 'details', menueZusaetze: 'zusaetze', menueAnlagen: 'anlagen', menueLaufzettel: 'laufzettel' };
  function show(chosen) {
    Object.keys(panels).forEach(function (tabId) {
      var tab = document.getElementById(tabId);
      var panel = document.getElementById(panels[tabId]);
      if (!tab || !panel) return;
      tab.setAttribute('class', tabId === chosen ? 'btnAktiv' : 'btnInaktiv');
      panel.style.display = tabId === chosen ? 'block' : 'none';
    });
  }
  Object.keys(panels).forEach(function (tabId) {
    var tab = document.getElementById(tabId);
    if (tab) tab.addEventListener('click', function () { show(tabId); });
  });
  show('menueUebersicht');
})();`;

/** The CSP source that lets exactly {@link VIEWER_SCRIPT} run. */
export const VIEWER_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(VIEWER_SCRIPT).digest('base64')}'`;

/** Elements that load or run something, or move the page elsewhere: the stylesheet makes none, and none may come through. */
const DROPPED_ELEMENTS = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'link',
  'portal',
  'noscript',
]);

/** Attributes that name a URL (or hold markup) and that the stylesheet never writes: removed whatever their value. */
const DROPPED_URL_ATTRIBUTES = new Set([
  'action',
  'formaction',
  'srcset',
  'srcdoc',
  'poster',
  'background',
  'ping',
  'data',
  'codebase',
  'cite',
  'longdesc',
  'xlink:href',
  'manifest',
]);

/** The extensions an attachment keeps: those of the MIME types Peppol allows; any other file is saved as `.bin`. */
const ATTACHMENT_EXTENSIONS = new Set(['pdf', 'png', 'jpg', 'jpeg', 'csv', 'xlsx', 'ods']);

const isElement = (node: DefaultTreeAdapterMap['node']): node is Element => tree.isElementNode(node);

/** Every element below `parent`, in document order. */
function elementsUnder(parent: ParentNode, found: Element[] = []): Element[] {
  for (const child of tree.getChildNodes(parent)) {
    if (!isElement(child)) continue;
    found.push(child);
    elementsUnder(child, found);
  }
  return found;
}

const attributeOf = (element: Element, name: string) => element.attrs.find((attr) => attr.name === name)?.value;

function setAttribute(element: Element, name: string, value: string): void {
  const existing = element.attrs.find((attr) => attr.name === name);
  if (existing) existing.value = value;
  else element.attrs.push({ name, value });
}

const textOf = (element: Element) =>
  tree
    .getChildNodes(element)
    .map((child) => (tree.isTextNode(child) ? child.value : ''))
    .join('');

/**
 * An `href` or `src` as the browser will read it, when it is an http(s) URL or a link within the page;
 * undefined for anything else (`javascript:`, `data:`, a relative path). The browser strips leading
 * and trailing blanks and tabs or newlines inside the scheme, as the WHATWG parser here does, so the
 * value checked and the value kept are the one the browser follows.
 * @internal
 */
export function safeUrl(value: string): string | undefined {
  if (value.startsWith('#')) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

/**
 * A file name that says nothing to the file system or to what opens the file: the last path part, only
 * letters, digits, dots, dashes and underscores, and an extension of a type Peppol allows (`.bin`
 * added otherwise), so a saved attachment does not open as a page or a program.
 * @internal
 */
export function safeFilename(declared: string): string {
  const base = declared.split(/[\\/]/).pop() ?? '';
  const stem =
    base
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/^[._]+/, '')
      .slice(0, 100) || 'attachment';
  const extension = /\.([A-Za-z0-9]+)$/.exec(stem)?.[1]?.toLowerCase();
  return extension && ATTACHMENT_EXTENSIONS.has(extension) ? stem : `${stem}.bin`;
}

/**
 * The stylesheet keeps each embedded attachment (BT-125) in a hidden element beside its link, with its
 * declared type and name as attributes, for its script to open in a new window as that type. The link
 * becomes a download of the bytes as `application/octet-stream` under a safe name, with no script;
 * the hidden element goes (its id is the document's BT-122). Content that is not base64 leaves the
 * link without a target.
 */
function offerAttachmentsAsDownloads(elements: Element[]): void {
  for (const holder of elements.filter(
    (element) => attributeOf(element, 'filename') !== undefined && attributeOf(element, 'mimetype') !== undefined,
  )) {
    const container = tree.getParentNode(holder);
    const siblings = container ? tree.getChildNodes(container).filter(isElement) : [];
    const linkBox = siblings[siblings.indexOf(holder) - 1];
    const link = linkBox && elementsUnder(linkBox).find((element) => element.tagName === 'a');
    const bytes = decodeBase64(textOf(holder));
    tree.detachNode(holder);
    if (!link) continue;
    link.attrs = link.attrs.filter((attr) => attr.name !== 'href');
    if (!bytes || bytes.length === 0) continue;
    setAttribute(link, 'href', `data:application/octet-stream;base64,${bytes.toString('base64')}`);
    setAttribute(link, 'download', safeFilename(attributeOf(holder, 'filename') ?? ''));
  }
}

/** No handler, no script, no URL but http(s) and in-page links: what the stylesheet or a document value put there. */
function disarm(element: Element): void {
  element.attrs = element.attrs.filter((attr) => {
    const name = attr.name.toLowerCase();
    if (name.startsWith('on') || DROPPED_URL_ATTRIBUTES.has(name)) return false;
    if (name !== 'href' && name !== 'src') return true;
    const safe = safeUrl(attr.value);
    if (safe === undefined) return false;
    attr.value = safe;
    return true;
  });
}

const isRefresh = (element: Element) =>
  element.tagName === 'meta' && attributeOf(element, 'http-equiv')?.toLowerCase() === 'refresh';

function bodyOf(elements: Element[]): Element {
  const body = elements.find((element) => element.tagName === 'body');
  if (!body) throw new Error('the rendered HTML has no body');
  return body;
}

/** A banner at the top of the page, in the page's own inline style (the only style the CSP allows). */
function insertBanner(body: Element, text: string): void {
  const banner = tree.createElement('div', body.namespaceURI, [
    { name: 'class', value: 'einvoice-notice' },
    { name: 'role', value: 'alert' },
    {
      name: 'style',
      value: 'background:#b00020;color:#fff;font:bold 16px/1.4 sans-serif;padding:12px 16px;text-align:center',
    },
  ]);
  tree.insertText(banner, text);
  const first = tree.getFirstChild(body);
  if (first) tree.insertBefore(body, banner, first);
  else tree.appendChild(body, banner);
}

/**
 * The renderer's HTML made safe to open anywhere, with or without the served Content-Security-Policy
 * (a saved page, or an app showing the HTML the SDK or MCP server fetched): no document value reaches
 * a script or a URL other than http(s), attachments download as plain bytes, and the only script is
 * {@link VIEWER_SCRIPT}. A `notice` is shown as a banner above the document.
 * @internal
 */
export function safeRenderedHtml(html: string, notice?: string): string {
  const document = parse(html);
  const elements = elementsUnder(document);
  for (const element of elements) {
    if (DROPPED_ELEMENTS.has(element.tagName) || isRefresh(element)) tree.detachNode(element);
    else disarm(element);
  }
  // After disarming, which would take the download's data: URL too.
  offerAttachmentsAsDownloads(elements);
  const body = bodyOf(elements);
  if (notice) insertBanner(body, notice);
  const script = tree.createElement('script', body.namespaceURI, []);
  tree.insertText(script, VIEWER_SCRIPT);
  tree.appendChild(body, script);
  return serialize(document);
}

/**
 * {@link safeRenderedHtml} as plain data in and out, for the API's worker threads (api/public/cpu-tasks.ts):
 * the page grows about 12 KB a line of the document, and parsing it takes seconds at 1,000 lines.
 */
export function safeRenderedPage({ html, notice }: { html: Uint8Array; notice: string | undefined }): string {
  return safeRenderedHtml(Buffer.from(html.buffer, html.byteOffset, html.byteLength).toString('utf8'), notice);
}
