/** Starting a sandbox from code. */
import type { Sandbox, SandboxOptions } from './options.ts';
import { SandboxServer } from './sandbox-server.ts';

/** Starts a sandbox on 127.0.0.1 (port 0 picks a free one). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const server = new SandboxServer(options);
  let address: { url: string; port: number };
  try {
    address = await server.listen(options.port ?? 0);
  } catch (err) {
    await server.stop().catch(() => undefined);
    throw err;
  }
  const { url, port } = address;
  return {
    url,
    port,
    ledger: () => server.ledger(),
    webhookDeliveries: () => server.webhookDeliveries(),
    setFaults: (faults) => server.setFaults(faults),
    stop: () => server.stop(),
  };
}
