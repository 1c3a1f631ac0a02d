/** Worker thread entry: runs generation jobs off the main thread, so HTTP answers never wait on them. */
import { parentPort } from 'node:worker_threads';
import { type GenerationJob, runGenerationJob } from './generation-jobs.ts';

interface JobMessage {
  id: number;
  job: GenerationJob;
}

const port = parentPort;
if (port) {
  port.on('message', (message: JobMessage) => {
    runGenerationJob(message.job).then(
      (bytes) => {
        const copy = new Uint8Array(bytes.length);
        copy.set(bytes);
        port.postMessage({ id: message.id, ok: true, bytes: copy }, [copy.buffer]);
      },
      (err: unknown) => {
        port.postMessage({
          id: message.id,
          ok: false,
          error: err instanceof Error ? err.message : String(err),
        });
      },
    );
  });
}
