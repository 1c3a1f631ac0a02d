/**
 * Local sandbox of the asynchronous media task service: a real HTTP server on 127.0.0.1 that
 * emulates the service (spec + field notes) so the app can be shown and tested with no account
 * and no network.
 *
 * Answers by model (the spec's forms; all JSON):
 *
 * | model                  | task types                                         | create answers                     | fetch answers |
 * |------------------------|----------------------------------------------------|------------------------------------|---------------|
 * | service/ace-step       | txt2audio, audio2audio, edit, extend               | form A `{timestamp, data}`         | form A `{timestamp, code, message, data}`, output `{audio_url}` (WAV) |
 * | service/image-toolkit  | face-swap, multi-face-swap, background-remove, segment, upscale | form A `{code, message, data}` with input `{}`, output null, meta `{}` | form A `{code, message, data}`, output `{image_url}` (PNG) |
 * | service/image-edit     | image-edit                                         | spec 2.7 `{task_id, status, created_at}`, no envelope | form A, output `{image_url, image_urls}` (PNG) |
 * | service/image-gen      | txt2img                                            | form A `{code, message, data}`     | form C (detailed record: input as a JSON string, metadata, task, works[].resource.resource) |
 * | service/video-gen      | txt2video {prompt, duration?}                      | form A `{code, message, data}`     | form B `{code, message, data: {task_id, status, output: {video_url}}}` (MP4; `video_url` is "" until completed) |
 *
 * Form A `data` is always fully filled: task_id (UUID), model, task_type, status, config
 * {service_mode, webhook_config {endpoint, secret}}, input (ace-step echoes negative_prompt as
 * negative_style_prompt and style_audio "" when unused), output (null until completed), meta
 * {created_at, started_at, ended_at, usage {type: "point", frozen, consume}, is_using_private_pool:
 * false}, detail null, logs [], error {code 0, raw_message "", message "", detail null}.
 * Times are ISO 8601 with `+00:00`; started_at / ended_at read `0001-01-01T00:00:00Z` until they happen.
 *
 * Usage units: 1 point = 1 micro-USD (the spec's price table through `estimateCost`). `frozen` is
 * set at create; `consume` equals it once completed, 0 before and on failure. Task types without a
 * published price freeze and consume 0. Form C reports the same numbers as quota_frozen / quota_usage
 * and its integer statuses are: staged/pending 0, processing 1, completed 2, failed 3.
 *
 * Lifecycle: staged (held over the per-key concurrency limit) -> pending -> processing ->
 * completed | failed. Seconds before `timeScale` (spread +-10% per task id): ace-step 3 pending +
 * (2 + audio seconds / 10) processing; face-swap, multi-face-swap, upscale 2 + 4; background-remove,
 * segment 1 + 3; image-edit 2 + 6; txt2img 2 + 5; txt2video 3 + 15. Output files are made when
 * processing ends (the task reads `processing` until they exist) and served at
 * `/files/<task_id>/<name>` (audio.wav, image.png, image-1.png, video.mp4) with Range support;
 * after `outputTtlMs` (or `earlyExpiryMs` for an early-expiry fault) they answer 410.
 *
 * Create checks: txt2audio needs `duration` (LIMITS.audioMinSeconds..audioMaxSeconds) and a
 * style_prompt or style_audio; lyrics at most LIMITS.lyricsMaxChars; txt2audio, image-edit and
 * face-swap refuse input fields the spec does not list (the other task types ignore extra fields);
 * every image input (URL, data URI or raw Base64) is fetched / decoded at create time and each side
 * must be under LIMITS.imageMaxSideExclusive; face-swap URLs must end in .jpg/.jpeg/.png/.webp.
 * Output files are made on a worker thread (`generationWorkers`, default 1), so fetches never wait.
 *
 * Errors all have the body `{code, message, data: null, error: {code, raw_message, message, detail: null}}`:
 * 400 bad request (the message names the field, e.g. `input.duration must be between 1 and 240, got 500`),
 * 400 for a malformed (non-UUID) task id, 401 missing or wrong `x-api-key`, 404 unknown task id,
 * unknown path or file, 405 wrong method, 410 expired output, 413 body over 64 MiB, 429 over the
 * concurrency limit with `overLimit: 'refuse'` (Retry-After: 1) or a rate-limit fault, 500 a server-error
 * fault. A failed task carries error {code 10000 (injected failure) or 10001 (output generation failed)}.
 *
 * Faults (seeded, `setFaults` or `PUT /_sandbox/faults` at run time) act on create and fetch calls
 * only (as `applyTo` says), never on `/files/...` or `/_sandbox/...`. taskFailureRate and
 * earlyExpiryRate are drawn per accepted task whatever `applyTo` says.
 *
 * Webhooks: on completed or failed, POST `{timestamp, data}` (data in form A) with
 * `x-webhook-secret`, retried on non-2xx, error or 5 s timeout after webhookBackoffMs, doubling.
 *
 * Control paths (no key, loopback only): `GET /_sandbox/ledger` -> `{entries: LedgerEntry[]}`,
 * `GET /_sandbox/faults` -> `{faults}`, `PUT /_sandbox/faults` with a FaultOptions body.
 */

/** Deterministic randomness for workloads that must repeat exactly (benchmarks, tests). */
export { seededRandom } from './media/index.ts';
export type { FaultOptions, LedgerEntry, Sandbox, SandboxOptions, WebhookDelivery } from './options.ts';
export { parseSandboxArgs, runSandboxCommand, SANDBOX_USAGE, SandboxUsageError } from './sandbox-command.ts';
export { startSandbox } from './start-sandbox.ts';
export { type StageDurations, stageDurations } from './task-timing.ts';
