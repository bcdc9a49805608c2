import { checkXmlBounds } from '../../domain/xml-bounds';

/** The streaming pass that measures XML from outside before the official validator reads it. */
describe('checkXmlBounds', () => {
  const bounds = { maxDepth: 4, maxElements: 6 };

  it('when a document stays within both bounds, then it passes with its element count and depth', () => {
    expect(checkXmlBounds('<a><b><c/></b><d>text</d></a>', bounds)).toEqual({ ok: true, elements: 4, depth: 3 });
  });

  it('when elements nest deeper than the bound, then it stops there, naming the bound, line and column', () => {
    expect(checkXmlBounds('<a>\n<b><c><d><e/></d></c></b></a>', bounds)).toMatchObject({
      ok: false,
      problem: 'too_deep',
      limit: 4,
      line: 2,
    });
  });

  it('when there are more elements than the bound, self-closing ones included, then it stops there', () => {
    expect(checkXmlBounds(`<a>${'<b/>'.repeat(6)}</a>`, bounds)).toMatchObject({
      ok: false,
      problem: 'too_many_elements',
      limit: 6,
    });
  });

  it('when a hostile document nests 200,000 elements, then the first bound passed ends the pass at once', () => {
    const deep = `${'<n>'.repeat(200_000)}${'</n>'.repeat(200_000)}`;
    expect(checkXmlBounds(deep, { maxDepth: 64, maxElements: 100_000 })).toMatchObject({
      ok: false,
      problem: 'too_deep',
      limit: 64,
      line: 1,
    });
  });

  it('when the XML is not well-formed, then it says where, in words', () => {
    expect(checkXmlBounds(Buffer.from('<a><b></a>'), bounds)).toEqual({
      ok: false,
      problem: 'not_well_formed',
      message: expect.stringMatching(/^line 1, column \d+: unexpected close tag/),
    });
  });
});
