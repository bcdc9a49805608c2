import { validateForSendingWith } from '../../activities/validate-for-sending';

/** The send workflow's one step before sending: the verdict, then the sandbox email's PDF, best effort. */
describe('validating a document for sending', () => {
  const accepted = { ruleSet: 'eu.peppol.bis3:2026.5', refusal: null };
  const setUp = (overrides: Partial<Parameters<typeof validateForSendingWith>[0]> = {}) => {
    const rendered: string[] = [];
    const warnings: unknown[] = [];
    const step = validateForSendingWith({
      validate: () => Promise.resolve(accepted),
      deliversByEmail: () => Promise.resolve(true),
      renderReadablePdf: (id) => {
        rendered.push(id);
        return Promise.resolve({ rendered: true });
      },
      logger: { warn: (...args: unknown[]) => void warnings.push(args) },
      ...overrides,
    });
    return { step, rendered, warnings };
  };

  it('when the rules accept a sandbox document, then its PDF is rendered and the verdict says so', async () => {
    const { step, rendered } = setUp();
    await expect(step('doc_1')).resolves.toEqual({ ...accepted, readablePdf: 'rendered' });
    expect(rendered).toEqual(['doc_1']);
  });

  it('when the rules refuse the document, then no PDF is rendered', async () => {
    const refused = { ruleSet: accepted.ruleSet, refusal: 'Refused by the official Peppol rules' };
    const { step, rendered } = setUp({ validate: () => Promise.resolve(refused) });
    await expect(step('doc_1')).resolves.toEqual({ ...refused, readablePdf: 'not needed' });
    expect(rendered).toEqual([]);
  });

  it('when the document goes on Peppol, then no PDF is rendered', async () => {
    const { step, rendered } = setUp({ deliversByEmail: () => Promise.resolve(false) });
    await expect(step('doc_1')).resolves.toEqual({ ...accepted, readablePdf: 'not needed' });
    expect(rendered).toEqual([]);
  });

  it('when the rendering fails, then the step still answers the verdict, once, and the email goes without a PDF', async () => {
    const { step, warnings } = setUp({
      renderReadablePdf: () => Promise.reject(new Error('the renderer did not answer within 10 s')),
    });
    await expect(step('doc_1')).resolves.toEqual({ ...accepted, readablePdf: 'without' });
    expect(warnings).toHaveLength(1);
  });

  it('when the renderer refuses the document, then the email goes without a PDF', async () => {
    const { step } = setUp({ renderReadablePdf: () => Promise.resolve({ rendered: false }) });
    await expect(step('doc_1')).resolves.toEqual({ ...accepted, readablePdf: 'without' });
  });

  it('when the validator cannot answer, then the step throws for its retry policy and renders nothing', async () => {
    const { step, rendered } = setUp({ validate: () => Promise.reject(new Error('connection refused')) });
    await expect(step('doc_1')).rejects.toThrow('connection refused');
    expect(rendered).toEqual([]);
  });
});
