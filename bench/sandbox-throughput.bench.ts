/**
 * Sandbox throughput: task fetches per second with 1,000 tasks in flight, served by the sandbox
 * in its own process (as `npm run sandbox` runs it) to a load client in this process over 32
 * keep-alive connections. Baseline in the same run: a bare node:http server in its own process
 * answering every GET with a fixed JSON task of the same size, under the same client. Target:
 * at least 2,000 fetches per second, so the sandbox is never the bottleneck of other benchmarks.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Agent, request } from 'undici';

const ROOT = join(import.meta.dirname, '..');
const KEY = 'bench-key';
const SECONDS = 5;
const CONNECTIONS = 32;

function startChild(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/i.exec(out);
      if (m?.[1]) resolve({ child, url: m[1] });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
}

const BARE_SERVER = `
const http = require('node:http');
const body = Buffer.from(process.argv[1]);
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
`;

async function load(url: string, ids: string[], agent: Agent): Promise<number> {
  let done = 0;
  let failed = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, worker) => {
      let i = worker;
      while (performance.now() < until) {
        const id = ids[i++ % ids.length] as string;
        const res = await request(`${url}/api/v1/task/${id}`, {
          dispatcher: agent,
          headers: { 'x-api-key': KEY },
        });
        await res.body.arrayBuffer();
        if (res.statusCode === 200) done++;
        else failed++;
      }
    }),
  );
  if (failed) throw new Error(`${failed} fetches failed`);
  return done / SECONDS;
}

async function main(): Promise<boolean> {
  const agent = new Agent({ connections: CONNECTIONS, keepAliveTimeout: 60_000 });
  const sandbox = await startChild([
    'src/cli/media-task.ts',
    'sandbox',
    '--port',
    '0',
    '--api-key',
    KEY,
    '--time-scale',
    '100',
    // 1,000 songs cost more than the default demo balance
    '--balance-micros',
    '1000000000',
    '--concurrency',
    '5000',
  ]);
  let bare: { child: ChildProcess; url: string } | null = null;
  try {
    const ids: string[] = [];
    const kinds = [
      { model: 'service/ace-step', task_type: 'txt2audio', input: { style_prompt: 'bench', duration: 30 } },
      { model: 'service/image-gen', task_type: 'txt2img', input: { prompt: 'bench' } },
      { model: 'service/video-gen', task_type: 'txt2video', input: { prompt: 'bench' } },
    ];
    for (let batch = 0; batch < 20; batch++) {
      const created = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const res = await request(`${sandbox.url}/api/v1/task`, {
            method: 'POST',
            dispatcher: agent,
            headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
            body: JSON.stringify(kinds[(batch * 50 + i) % kinds.length]),
          });
          const json = (await res.body.json()) as { data: { task_id: string } };
          return json.data.task_id;
        }),
      );
      ids.push(...created);
    }
    const sample = await request(`${sandbox.url}/api/v1/task/${ids[0]}`, {
      dispatcher: agent,
      headers: { 'x-api-key': KEY },
    });
    const sampleBody = await sample.body.text();
    bare = await startChild(['-e', BARE_SERVER, sampleBody]);

    await load(bare.url, ids.slice(0, 100), agent); // warm-up
    const baseline = await load(bare.url, ids, agent);
    await load(sandbox.url, ids.slice(0, 100), agent);
    const measured = await load(sandbox.url, ids, agent);
    const pass = measured >= 2_000;
    console.log(
      `sandbox throughput: ${ids.length} tasks in flight, ${CONNECTIONS} keep-alive connections, ${SECONDS} s each`,
    );
    console.log(`  bare node:http baseline: ${Math.round(baseline)} fetches/s`);
    console.log(`  sandbox:                 ${Math.round(measured)} fetches/s`);
    console.log(
      `  ratio sandbox/baseline = ${(measured / baseline).toFixed(2)}; target >= 2000 fetches/s -> ${pass ? 'PASS' : 'FAIL'}`,
    );
    return pass;
  } finally {
    await agent.close();
    sandbox.child.kill('SIGTERM');
    bare?.child.kill('SIGTERM');
  }
}

main().then(
  (ok) => {
    process.exitCode = ok ? 0 : 1;
  },
  (err) => {
    console.error(err);
    process.exitCode = 1;
  },
);
