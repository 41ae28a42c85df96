// Every command's flags, parsed by commander into the typed options and run against a fake client: what
// reaches the wire for a given command line. No network.
import { describe, expect, it } from 'vitest';
import { createFake, type FakeOptions } from '../fake-context.js';
import { runProgram } from './run-program.js';

async function parse(argv: string[], opts: FakeOptions = {}) {
  const fake = createFake(opts);
  const { code } = await runProgram(fake, argv);
  return { code, calls: fake.calls, sent: fake.sent, fake };
}

describe('command lines → requests', () => {
  it('register with every flag', async () => {
    const { code, sent } = await parse(
      [
        'register',
        'AAA11111',
        '--carrier',
        '3011',
        '--param',
        'US-10001',
        '--tag',
        'b7',
        '--lang',
        'de',
        '--email',
        'a@b.c',
        '--final-carrier',
        '21051',
        '--api-version',
        'v2.1',
        '--order-no',
        'o1',
        '--order-time',
        '2025-05-01',
        '--remark',
        'r',
      ],
      { version: 'v2.1' },
    );
    expect(code).toBe(0);
    expect(sent('register')).toEqual([
      [
        {
          number: 'AAA11111',
          carrier: 3011,
          param: 'US-10001',
          tag: 'b7',
          lang: 'de',
          email: 'a@b.c',
          final_carrier: 21051,
          order_no: 'o1',
          order_time: '2025-05-01',
          remark: 'r',
        },
      ],
    ]);
  });

  it('register --no-auto-detection without a carrier', async () => {
    const { sent } = await parse(['register', 'AAA11111', '--no-auto-detection']);
    expect(sent('register')).toEqual([[{ number: 'AAA11111', auto_detection: false }]]);
  });

  it.each([
    ['stop', 'stoptrack'],
    ['retrack', 'retrack'],
    ['push', 'push'],
    ['info', 'gettrackinfo'],
  ])('%s NUMBER --carrier → %s', async (cmd, op) => {
    const { calls } = await parse([cmd, 'AAA11111', '--carrier', '190012', '--json']);
    expect(calls).toEqual([{ op, body: [{ number: 'AAA11111', carrier: 190012 }], opts: { retry: false } }]);
  });

  it('delete --yes after or before the command', async () => {
    expect((await parse(['delete', 'AAA11111', '--yes'])).calls[0]!.op).toBe('deletetrack');
    expect((await parse(['--yes', 'delete', 'AAA11111'])).calls[0]!.op).toBe('deletetrack');
    const refused = await parse(['delete', 'AAA11111']);
    expect(refused.code).toBe(2);
    expect(refused.calls).toHaveLength(0);
  });

  it('list with every filter', async () => {
    const { calls } = await parse(
      [
        'list',
        '--status',
        'Delivered',
        '--carrier',
        '3011',
        '--tracking',
        'Tracking',
        '--origin',
        'Api',
        '--registered-since',
        '2025-05-01',
        '--registered-until',
        '2025-05-31T23:59:59Z',
        '--tracked-since',
        '2025-05-02',
        '--tracked-until',
        '2025-05-03',
        '--pushed-since',
        '2025-05-04',
        '--pushed-until',
        '2025-05-05',
        '--push-status',
        'Failure',
        '--push-code',
        '500',
        '--stopped-since',
        '2025-05-06',
        '--stopped-until',
        '2025-05-07',
        '--number',
        'AAA11111,BBB22222',
        '--number',
        'CCC33333',
        '--order-by',
        'PushTimeDesc',
        '--page',
        '2',
      ],
      { handler: () => ({ code: 0, data: { accepted: [] } }) },
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toEqual({
      package_status: 'Delivered',
      carrier: 3011,
      tracking_status: 'Tracking',
      data_origin: 'Api',
      register_time_from: '2025-05-01T00:00:00Z',
      register_time_to: '2025-05-31T23:59:59Z',
      track_time_from: '2025-05-02T00:00:00Z',
      track_time_to: '2025-05-03T00:00:00Z',
      push_time_from: '2025-05-04T00:00:00Z',
      push_time_to: '2025-05-05T00:00:00Z',
      push_status: 'Failure',
      push_status_code: 500,
      stop_track_time_from: '2025-05-06T00:00:00Z',
      stop_track_time_to: '2025-05-07T00:00:00Z',
      number: 'AAA11111,BBB22222,CCC33333',
      order_by: 'PushTimeDesc',
      page_no: 2,
    });
  });

  it('realtime --fresh --yes', async () => {
    const { calls } = await parse([
      'realtime',
      'AAA11111',
      '--carrier',
      '3011',
      '--param',
      'p',
      '--final-carrier',
      '5',
      '--fresh',
      '--yes',
      '--json',
    ]);
    expect(calls[0]).toMatchObject({
      op: 'getRealTimeTrackInfo',
      body: [{ number: 'AAA11111', carrier: 3011, param: 'p', final_carrier: 5, cacheLevel: 1 }],
    });
  });

  it('change-carrier and update', async () => {
    const cc = await parse([
      'change-carrier',
      'AAA11111',
      '--to',
      '2',
      '--from',
      '1',
      '--final-to',
      '4',
      '--final-from',
      '3',
    ]);
    expect(cc.sent('changecarrier')).toEqual([
      [{ number: 'AAA11111', carrier_old: 1, carrier_new: 2, final_carrier_old: 3, final_carrier_new: 4 }],
    ]);
    const up = await parse(['update', 'AAA11111', '--tag', 't', '--param', 'p', '--lang', 'fr', '--carrier', '9']);
    expect(up.calls[0]!.body).toEqual([
      { number: 'AAA11111', carrier: 9, items: { tag: 't', param: 'p', lang: 'fr' } },
    ]);
  });

  it('api OPERATION --data', async () => {
    const { calls, code } = await parse(['api', 'gettrackinfo', '--data', '[{"number":"AAA11111"}]']);
    expect(code).toBe(0);
    expect(calls[0]).toMatchObject({ op: 'gettrackinfo', body: [{ number: 'AAA11111' }] });
  });

  it('quota', async () => {
    const { calls } = await parse(['quota', '--json']);
    expect(calls[0]).toMatchObject({ op: 'getquota', body: [] });
  });

  it('global options land in the context wherever they are placed', async () => {
    const { fake } = await parse([
      '-q',
      'stop',
      'AAA11111',
      '-o',
      'ndjson',
      '--verbose',
      '--no-color',
      '--profile',
      'work',
    ]);
    expect(fake.ctx.global).toEqual({ quiet: true, output: 'ndjson', verbose: true, color: false, profile: 'work' });
    expect(fake.io.stderrText()).toBe('');
  });
});
