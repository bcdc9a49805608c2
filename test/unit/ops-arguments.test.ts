import { commandLine, COMMAND_OPTIONS, UsageError } from '../../ops/arguments';

/** The ops CLI takes a command's options before, between or after its arguments, as every CLI parser does. */
describe('ops command lines', () => {
  const send = { args: ['0208:0987654394', 'invoice.xml'], options: { via: 'oxalis', mls: 'always' } };

  it('when network send has its options after the arguments, before them or between them, then it reads the same', () => {
    expect(
      commandLine('network send', ['0208:0987654394', 'invoice.xml', '--via', 'oxalis', '--mls', 'always']),
    ).toEqual(send);
    expect(
      commandLine('network send', ['--via', 'oxalis', '--mls', 'always', '0208:0987654394', 'invoice.xml']),
    ).toEqual(send);
    expect(commandLine('network send', ['0208:0987654394', '--via=oxalis', 'invoice.xml', '--mls', 'always'])).toEqual(
      send,
    );
  });

  it('when a repeatable option is given several times, then every value is kept in order', () => {
    expect(
      commandLine('network respond', [
        '--reason',
        'REF:wrong order',
        'INV-1',
        '--action',
        'NIN',
        'RE',
        '--reason',
        'QTY',
      ]),
    ).toEqual({
      args: ['INV-1', 'RE'],
      options: { reason: ['REF:wrong order', 'QTY'], action: ['NIN'] },
    });
  });

  it('when each command with options has them first, then they are read as options, not arguments', () => {
    expect(commandLine('kyc list', ['--status', 'pending'])).toEqual({ args: [], options: { status: 'pending' } });
    expect(commandLine('stuck', ['--older-than', '60'])).toEqual({ args: [], options: { 'older-than': '60' } });
    expect(commandLine('reporting', ['--send', '--out', '/tmp/r', '2026-10'])).toEqual({
      args: ['2026-10'],
      options: { send: true, out: '/tmp/r' },
    });
    expect(Object.keys(COMMAND_OPTIONS).sort()).toEqual([
      'kyc list',
      'network respond',
      'network send',
      'reporting',
      'stuck',
    ]);
  });

  it('when an option is unknown to the command, or lacks its value, then it is a usage error', () => {
    expect(() => commandLine('network send', ['0208:0987654394', 'invoice.xml', '--colour', 'red'])).toThrow(
      UsageError,
    );
    expect(() => commandLine('network send', ['0208:0987654394', 'invoice.xml', '--via'])).toThrow(UsageError);
    expect(() => commandLine('kyc show', ['ws_1', '--status', 'pending'])).toThrow(UsageError);
  });

  it('when a free text starts with a dash, then -- makes it an argument', () => {
    expect(commandLine('kyc reject', ['ws_1', '--', '--no proof of address'])).toEqual({
      args: ['ws_1', '--no proof of address'],
      options: {},
    });
  });
});
