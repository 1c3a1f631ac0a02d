/**
 * Every string the service sends is made safe where its answer is read (security review, issue
 * 17, items 5, 7 and 9): the key the service echoes and terminal control sequences (OSC 52
 * clipboard writes, OSC 0 titles, CSI erases) are gone from the account name, task errors,
 * statuses and error bodies before anything keeps, shows or logs them; an upload answer is used
 * only as an https address (http only from an endpoint on this computer) of at most 2048
 * characters without the key. A raw HTTP server on 127.0.0.1 plays the service.
 */
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ProtocolError,
  ServiceClient,
  type ServiceClientOptions,
} from '../../src/core/service/index.ts';
import { UPLOAD_URL_MAX_CHARS, uploadUrlProblem, withoutControlSequences } from '../../src/shared/index.ts';
import { expectNoKeyLeak, failureOf } from './key-leak.ts';
import { type RawServer, sendJson, startRawServer } from './raw-http-server.ts';
import { audioCreateFormA } from './wire-payloads.ts';

const API_KEY = 'sk-live-2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c0b';
/** What a hostile answer wraps around its words: a clipboard write, a title, an erase, a bell. */
const OSC52 = '\x1b]52;c;cm0gLXJmIH4=\x07';
const TITLE = '\x1b]0;pwned\x1b\\';
const ERASE = '\x1b[2J\x1b[1;1H\x1b[K';
const C1 = '\x9b31m\x9d2;c1\x9c\r\x07';
const HOSTILE = `${OSC52}${TITLE}${ERASE}${C1}`;

/** No escape, no C0 control but line feed and tab, no C1 control. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

const errors: unknown[] = [];
const servers: RawServer[] = [];
const clients: ServiceClient[] = [];

function clientFor(baseUrl: string, extra: Partial<ServiceClientOptions> = {}): ServiceClient {
  const client = new ServiceClient({ baseUrl, apiKey: API_KEY, retry: { maxAttempts: 1 }, ...extra });
  clients.push(client);
  return client;
}

async function serve(handler: Parameters<typeof startRawServer>[0]): Promise<RawServer> {
  const server = await startRawServer(handler);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

afterAll(() => {
  expectNoKeyLeak(errors, API_KEY);
  for (const error of errors) expect((error as Error).message).not.toMatch(CONTROL);
});

describe('withoutControlSequences', () => {
  it('leaves no control character but tab and line feed, and text without any as it was', () => {
    const pieces = fc.constantFrom(
      OSC52,
      TITLE,
      ERASE,
      C1,
      '\x1bc',
      '\x1b(B',
      '\x1bP1$r\x1b\\',
      '\x1b]8;;x',
      '\t',
      '\n',
    );
    const text = fc
      .array(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), pieces))
      .map((p) => p.join(''));
    fc.assert(
      fc.property(text, (value) => {
        const clean = withoutControlSequences(value);
        expect(clean).not.toMatch(CONTROL);
        expect(withoutControlSequences(clean)).toBe(clean);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (value) => {
        const plain = value.replace(new RegExp(CONTROL.source, 'g'), '');
        expect(withoutControlSequences(plain)).toBe(plain);
      }),
    );
    expect(withoutControlSequences(`a${OSC52}b\tc\r\nd${ERASE}e\x1bcf`)).toBe('ab\tc\ndef');
  });
});

describe('strings the service sends', () => {
  it('an account name echoing the key with terminal sequences comes back as words only', async () => {
    const server = await serve((req, res) =>
      sendJson(res, 200, {
        code: 200,
        data: {
          account_name: `${HOSTILE}Ann ${req.headers['x-api-key']}${HOSTILE}`,
          account_id: `id-${HOSTILE}7`,
          credits: 5,
          equivalent_in_usd: 1.5,
        },
        message: `ok ${HOSTILE}`,
      }),
    );
    const account = await clientFor(server.url).getAccount();
    expect(account).toEqual({
      accountName: 'Ann [redacted]',
      accountId: 'id-7',
      credits: 5,
      balanceUsd: 1.5,
    });
  });

  it('a task record: its error, status and id without the key or control sequences', async () => {
    const server = await serve((req, res) => {
      const key = String(req.headers['x-api-key']);
      const record = audioCreateFormA();
      record.data.task_id = `${record.data.task_id}${ERASE}`;
      record.data.status = `failed${TITLE}`;
      record.data.error = {
        code: 500,
        raw_message: `raw ${key}`,
        message: `model crashed ${OSC52}for key ${key}\r\nline two${C1}`,
        detail: null,
      };
      sendJson(res, 200, record);
    });
    const task = await clientFor(server.url).getTask('t-1');
    expect(task.id).toBe(audioCreateFormA().data.task_id);
    expect(task.status).toBe('failed');
    expect(task.error?.message).toBe('model crashed for key [redacted]\nline two');
    expect(task.error?.rawMessage).toBe('raw [redacted]');
    expect(JSON.stringify(task)).not.toContain(API_KEY);
    expect(JSON.stringify(task)).not.toMatch(/\\u00(1b|9b|9d|07)|\\r/i);
  });

  it('error bodies and excerpts of unreadable answers: words only', async () => {
    const server = await serve((req, res) => {
      const key = String(req.headers['x-api-key']);
      if (req.url.endsWith('/refused')) {
        return sendJson(res, 400, { code: 400, message: `bad ${HOSTILE}input for ${key}` });
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html>${HOSTILE}maintenance ${key}</html>`);
    });
    const client = clientFor(server.url);
    const refused = (await failureOf(client.getTask('refused'), errors)) as BadRequestError;
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(refused.serviceMessage).toBe('bad input for [redacted]');
    const unreadable = (await failureOf(client.getTask('html'), errors)) as ProtocolError;
    expect(unreadable).toBeInstanceOf(ProtocolError);
    expect(unreadable.excerpt).toBe('<html>maintenance [redacted]</html>');
    for (const error of [refused, unreadable]) expect(error.message).not.toMatch(CONTROL);
  });
});

describe('an upload answer', () => {
  /** An upload endpoint on 127.0.0.1 answering `url` (a function of the key it was sent). */
  async function uploadAnswering(url: (key: string) => string): Promise<ServiceClient> {
    const server = await serve((req, res) =>
      sendJson(res, 200, {
        code: 200,
        data: { url: url(String(req.headers['x-api-key'])) },
        message: 'success',
      }),
    );
    return clientFor(server.url, { uploadUrl: `${server.url}/api/ephemeral_resource` });
  }
  const FILE = { fileName: 'face.png', base64: 'iVBORw0KGgo=' };

  it('is used when it is an https address, or http on this computer from an endpoint on it (the sandbox)', async () => {
    const https = `https://img.example.test/ephemeral/${'a'.repeat(40)}.png`;
    expect(await (await uploadAnswering(() => https)).uploadFile(FILE)).toBe(https);
    const local = 'http://127.0.0.1:8787/_sandbox/uploads/1.png';
    expect(await (await uploadAnswering(() => local)).uploadFile(FILE)).toBe(local);
    const longest = `https://img.example.test/${'b'.repeat(UPLOAD_URL_MAX_CHARS - 29)}.png`;
    expect(longest).toHaveLength(UPLOAD_URL_MAX_CHARS);
    expect(await (await uploadAnswering(() => longest)).uploadFile(FILE)).toBe(longest);
  });

  it('is refused, in words, when it echoes the key, is not https, is too long or holds control characters', async () => {
    const cases: [(key: string) => string, RegExp][] = [
      [(key) => `https://img.example.test/f.png?key=${key}`, /holds the API key/],
      [(key) => `https://img.example.test/${encodeURIComponent(key)}.png`, /holds the API key/],
      [() => 'http://img.example.test/f.png', /must start with https:\/\//],
      [() => 'ftp://img.example.test/f.png', /must start with https:\/\//],
      [() => 'not-an-address', /is not a web address/],
      [
        () => `https://img.example.test/${'c'.repeat(UPLOAD_URL_MAX_CHARS)}.png`,
        /2077 characters long; at most 2048/,
      ],
      [() => `https://img.example.test/${OSC52}f.png`, /control characters/],
    ];
    for (const [answer, words] of cases) {
      const client = await uploadAnswering(answer);
      const error = (await failureOf(client.uploadFile(FILE), errors)) as ProtocolError;
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.message).toMatch(/^The upload endpoint answered an address that cannot be used: /);
      expect(error.message).toMatch(words);
      expect(error.message).not.toContain('cm0gLXJm');
    }
  });

  it('http is taken only from an upload endpoint on this computer', () => {
    const local = 'http://127.0.0.1:8787/f.png';
    expect(uploadUrlProblem(local, { endpointIsLocal: true })).toBeNull();
    expect(uploadUrlProblem(local, { endpointIsLocal: false })).toMatch(/must start with https:\/\//);
    expect(uploadUrlProblem('http://localhost/f.png', { endpointIsLocal: true })).toBeNull();
    expect(uploadUrlProblem('http://10.0.0.2/f.png', { endpointIsLocal: true })).toMatch(/https:\/\//);
    expect(uploadUrlProblem('https://x.example/ f.png', { endpointIsLocal: false })).toMatch(/spaces/);
  });
});
