import { createHash } from 'node:crypto';

import { defaultTreeAdapter as tree, parse, type DefaultTreeAdapterMap } from 'parse5';

import {
  safeFilename,
  safeRenderedHtml,
  safeUrl,
  VIEWER_SCRIPT,
  VIEWER_SCRIPT_SOURCE,
} from '../../domain/rendering/safe-html';

type Element = DefaultTreeAdapterMap['element'];

/**
 * The shape of the renderer's HTML (KoSIT's XRechnung visualization as the validator bundles it):
 * tabs wired by inline handlers, one supporting document (BG-24) per box, an embedded attachment kept
 * in a hidden element beside a link whose `onClick` names the document's BT-122, and BT-124 as an `href`.
 */
const supportingDocument = ({
  id,
  location,
  mime = '',
  filename = '',
  content = '',
}: {
  id: string;
  location: string;
  mime?: string;
  filename?: string;
  content?: string;
}) => `
  <div class="boxtabelle boxinhalt borderSpacing">
    <div class="boxzeile"><div class="boxdaten legende">ID:</div><div id="BT-122" class="boxdaten wert">${escapeText(id)}</div></div>
    <div class="boxzeile"><div class="boxdaten legende">Reference:</div><div id="BT-124" class="boxdaten wert"><a href="${escapeAttribute(location)}">${escapeText(location)}</a></div></div>
    <div class="boxzeile"><div class="boxdaten legende">Attachment:</div>
      <div id="BT-125" class="boxdaten wert"><a href="#" onClick="downloadData('${escapeAttribute(id)}')">Öffnen</a></div>
      <div id="${escapeAttribute(id)}" mimetype="${escapeAttribute(mime)}" filename="${escapeAttribute(filename)}" style="display:none;">${content}</div>
    </div>
  </div>`;

// As Saxon's HTML output method escapes: text and attribute values, never the quote inside an onClick's own string.
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}

const rendering = (documents: string) => `<!DOCTYPE HTML>
<html lang="de"><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><title>XRechnung</title><style>.divHide { display: none; }</style>
<script>var stylesheetScript = 1;</script></head>
<body><form><div class="menue"><div class="innen">
  <button type="button" class="tab" id="menueUebersicht" onclick="show(this);">Overview</button>
  <button type="button" class="tab" id="menueAnlagen" onclick="show(this)">Attachments</button>
</div></div></form>
<div class="inhalt"><div class="innen">
  <div id="uebersicht" class="divShow">Overview</div>
  <div id="anlagen" class="divHide"><div id="anlagenListe" class="box">${documents}</div></div>
</div></div>
</body><script>function downloadData(id) { window.open(id); }</script></html>`;

const HTML_ATTACHMENT = Buffer.from('<script>window.name = "pwned-attachment"</script>').toString('base64');
/** BT-122 closing the onClick's string and call to run its own; BT-124 a `javascript:` URL. */
const payloads = rendering(
  supportingDocument({
    id: "x'),window.name='pwned-122',('",
    location: 'https://example.com/spec.pdf',
    mime: 'text/html',
    filename: '../evil.html',
    content: HTML_ATTACHMENT,
  }) + supportingDocument({ id: 'ext-1', location: " \tjava\nscript:window.name='pwned-124'" }),
);

function elementsOf(html: string): Element[] {
  const all: Element[] = [];
  const walk = (node: DefaultTreeAdapterMap['parentNode']) => {
    for (const child of tree.getChildNodes(node)) {
      if (!tree.isElementNode(child)) continue;
      all.push(child);
      walk(child);
    }
  };
  walk(parse(html));
  return all;
}
const attribute = (element: Element, name: string) => element.attrs.find((attr) => attr.name === name)?.value;

describe('the rendered HTML made safe', () => {
  const safe = safeRenderedHtml(payloads);
  const elements = elementsOf(safe);

  it('when a BT-122 tries to break out of the onClick, then no element keeps an event handler attribute', () => {
    expect(payloads).toContain("onClick=\"downloadData('x'),window.name='pwned-122',('')\"");
    const handlers = elements.flatMap((element) =>
      element.attrs.filter((attr) => /^on/i.test(attr.name)).map((attr) => `${element.tagName} ${attr.name}`),
    );
    expect(handlers).toEqual([]);
    // The value itself is still shown, as text.
    expect(safe).toContain("x'),window.name='pwned-122',('");
  });

  it('when a BT-124 is a javascript: URL, however it is spaced, then its link loses the href and keeps the text; an https one stays', () => {
    const links = elements.filter((element) => element.tagName === 'a');
    const hrefs = links.map((link) => attribute(link, 'href')).filter((href) => href !== undefined);
    expect(hrefs.filter((href) => !href.startsWith('data:'))).toEqual(['https://example.com/spec.pdf']);
    expect(safe).toContain("script:window.name='pwned-124'</a>");
  });

  it('when an attachment declares text/html, then it is a download of plain bytes under a safe name, and its hidden holder is gone', () => {
    const downloads = elements.filter((element) => attribute(element, 'download') !== undefined);
    expect(downloads.map((link) => [attribute(link, 'href'), attribute(link, 'download')])).toEqual([
      [`data:application/octet-stream;base64,${HTML_ATTACHMENT}`, 'evil.html.bin'],
    ]);
    expect(elements.filter((element) => attribute(element, 'mimetype') !== undefined)).toEqual([]);
    // The attachment without content links nowhere.
    expect(elements.filter((element) => element.tagName === 'a' && attribute(element, 'href') === '#')).toEqual([]);
  });

  it("when the stylesheet brings its scripts, then the one script left is the viewer's, whose hash the policy names", () => {
    const scripts = elements.filter((element) => element.tagName === 'script');
    expect(scripts).toHaveLength(1);
    const text = tree
      .getChildNodes(scripts[0]!)
      .map((node) => (tree.isTextNode(node) ? node.value : ''))
      .join('');
    expect(text).toBe(VIEWER_SCRIPT);
    expect(VIEWER_SCRIPT_SOURCE).toBe(`'sha256-${createHash('sha256').update(text).digest('base64')}'`);
    expect(safe).not.toContain('stylesheetScript');
  });

  it('when a notice is given, then it is the first thing in the body; without one there is none', () => {
    const noticed = elementsOf(safeRenderedHtml(payloads, 'Sandbox: unverified sender'));
    const body = noticed.find((element) => element.tagName === 'body')!;
    const first = tree.getChildNodes(body).find((node) => tree.isElementNode(node))!;
    expect(attribute(first, 'class')).toBe('einvoice-notice');
    expect(
      tree
        .getChildNodes(first)
        .map((node) => (tree.isTextNode(node) ? node.value : ''))
        .join(''),
    ).toBe('Sandbox: unverified sender');
    expect(elements.some((element) => attribute(element, 'class') === 'einvoice-notice')).toBe(false);
  });

  it('when the markup carries elements that load or navigate, then they go', () => {
    const hostile = rendering(
      '<iframe src="https://example.com"></iframe><object data="x.swf"></object><base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=javascript:alert(1)"><img src="javascript:alert(1)" srcset="javascript:alert(1) 1x"><form action="javascript:alert(1)"><button formaction="javascript:alert(1)">go</button></form>',
    );
    const left = elementsOf(safeRenderedHtml(hostile));
    expect(
      left.filter(
        (element) =>
          ['iframe', 'object', 'base'].includes(element.tagName) || attribute(element, 'http-equiv') === 'refresh',
      ),
    ).toEqual([]);
    expect(left.flatMap((element) => element.attrs).filter((attr) => /javascript/i.test(attr.value))).toEqual([]);
  });
});

describe('URLs and file names', () => {
  it.each([
    ['https://example.com/a b', 'https://example.com/a%20b'],
    ['  HTTP://example.com/', 'http://example.com/'],
    ['#uebersicht', '#uebersicht'],
    ['javascript:alert(1)', undefined],
    ['\u0000javascript:alert(1)', undefined],
    ['JaVa\tScRiPt:alert(1)', undefined],
    ['data:text/html,<script>alert(1)</script>', undefined],
    ['vbscript:x', undefined],
    ['www.techspec.no', undefined],
    ['', undefined],
    ['//evil.example/x', undefined],
  ])('%j is kept as %j', (value, kept) => {
    expect(safeUrl(value)).toBe(kept);
  });

  it.each([
    ['invoice.pdf', 'invoice.pdf'],
    ['Scan 2026.JPG', 'Scan_2026.JPG'],
    ['../../etc/evil.html', 'evil.html.bin'],
    ['C:\\Users\\x\\run.exe', 'run.exe.bin'],
    ['.htaccess', 'htaccess.bin'],
    ['', 'attachment.bin'],
    ['"><script>.csv', 'script_.csv'],
  ])('%j is saved as %j', (declared, saved) => {
    expect(safeFilename(declared)).toBe(saved);
  });
});
