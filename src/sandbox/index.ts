/**
 * Local sandbox of the asynchronous media task service: a real HTTP server on 127.0.0.1 that
 * emulates the service (spec + field notes) so the app can be shown and tested with no account
 * and no network.
 *
 * Two answer profiles (option `profile`, flag `--profile`): `spec` (default) answers in the spec's
 * forms described first below; `hosted` copies the real service's public records (section "Hosted
 * profile"). Everything else (checks, lifecycle, billing, faults, uploads) is the same in both.
 *
 * Answers by model in the spec profile (the spec's forms; all JSON):
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
 * Outputs reflect the operation. Songs: `extend` is the source song (input.audio) with new music
 * before and after, round(left x rate) + source frames + round(right x rate) frames long, the
 * source's samples unchanged in the middle, at the source's rate and channels; `edit` is a new
 * song of exactly the source's length in the edited style; `audio2audio` lasts `duration` or else
 * as long as the style audio. The source is read when processing ends (a URL under the outbound
 * policy, an upload, Base64 or a data URI) and must be WAV (the sandbox's own song results are;
 * the real service's are MP3): a source it cannot get or read fails the task with error {code
 * 10000, message `failed to get input audio: <reason>`} (field notes), and nothing is charged.
 * Images: `upscale` is exactly the input's size times `scale` (no cap), `background-remove` an
 * RGBA PNG with a transparent background, `segment` a mask of the input's size grown or shrunk by
 * `segment_factor` pixels.
 *
 * Errors in the spec profile all have the body `{code, message, data: null, error: {code, raw_message,
 * message, detail: null}}`: 400 bad request (the message names the field, e.g. `input.duration must be
 * between 1 and 240, got 500`), 400 for a malformed (non-UUID) task id, 401 missing or wrong
 * `x-api-key`, 402 a create the balance cannot pay (`insufficient credits: ...`), 403 a task type the
 * plan refuses or uploads refused (`Insufficient plan level`), 404 unknown task id, unknown path or
 * file, 405 wrong method, 410 expired output or upload, 413 body over 64 MiB, 415 a body not declared
 * JSON, 429 over the concurrency limit with `overLimit: 'refuse'` (Retry-After: 1) or a rate-limit
 * fault, 500 a server-error fault. A failed task carries error {code 10000 (injected failure, or a
 * source song it cannot get or read) or 10001 (output generation failed)}.
 *
 * Hosted profile (`profile: 'hosted'`), from the field notes' recorded records and the docs:
 * - every create and fetch of ace-step, qwen-image and image-toolkit answers `{code: 200, data,
 *   message: "success"}` (no `timestamp`; the image-edit create too); image-toolkit creates show the
 *   docs' example (input `{}`, output null, meta `{}`); image-gen and video-gen (sandbox-only) keep
 *   forms C and B on fetch;
 * - `data` is the record of form A with: times as `2025-06-11T11:43:31.673594+08:00` (microseconds,
 *   +08:00); `meta.started_at` and `ended_at` null until the task has them; `logs` null until the task
 *   ends, `[]` after; `meta.usage.type` `llm` for ace-step, `point` otherwise; `detail` null; `error`
 *   `{code: 0, raw_message: "", message: "", detail: null}` when none; `config.service_mode` as sent ("" by
 *   default). Webhooks carry the same `data`;
 * - errors: `{code, message}` for 400, 401 and 403 (as the docs' examples), `{code, data: null,
 *   message}` for every other status; 401 says `Invalid API key`, 403 `Insufficient plan level`.
 *
 * Refusals (both profiles; none creates a task, bills, or enters the ledger): 403 for a task type in
 * `faults.planRefusedTaskTypes`; an HTTP 200 whose body is the profile's error body with `code`
 * `faults.bodyRefusalCode` (default 400) at `faults.bodyRefusalRate` (clients must check `code` on
 * HTTP 200); 402 when the available balance is below the task's price; 429 with Retry-After: 1 over the
 * concurrency limit with `overLimit: 'refuse'` (one public source reports 429 with Retry-After; the
 * reference SDKs retry creates only on 429, which is safe since nothing was made). A create is checked
 * in this order: key 401, content type 415, body 400, plan 403, refusal in a 200, image inputs 400,
 * balance 402, concurrency 429.
 *
 * Account (`GET /account/info`, `x-api-key`, both profiles): `{code: 200, data: {account_name: "sandbox",
 * account_id (number), plan: "sandbox", credits, equivalent_in_usd, max_concurrent_task_count, wallet:
 * {point_remain, point_frozen, point_used}}, message: "success"}`. 1 credit = 1 point = 1 micro-USD
 * in the spec profile, 1e-7 USD in the hosted one (`HOSTED_POINTS_PER_MICRO` points per micro-USD);
 * `credits` = point_remain = balanceMicros - frozen (tasks not yet ended) - used (consumed by completed
 * tasks), in points; `equivalent_in_usd` = that balance in USD. A failed task gives its frozen points back.
 *
 * Upload (`POST /api/ephemeral_resource`, `x-api-key`, JSON `{file_name, file_data}`, both profiles):
 * file_name at most 128 characters ending in .jpg/.jpeg/.png/.webp/.mp4/.wav/.mp3; file_data Base64
 * (a `data:` URI prefix allowed) of at most 10 MiB decoded; answers `{code: 200, data: {url}, message:
 * "success"}` with url `<base>/temp/<uuid>.<ext>`, served with the Content-Type sniffed from the bytes
 * (application/octet-stream when unknown) until `uploadTtlMs` (default 24 h x timeScale, at least a
 * minute), then 410. Errors: 400 naming file_name or file_data, 401, 403 `Insufficient plan level` with
 * `faults.uploadRefused`. Upload URLs work as task inputs (image inputs are fetched over loopback).
 *
 * Faults (seeded, `setFaults` or `PUT /_sandbox/faults` at run time) act on create and fetch calls
 * only (as `applyTo` says), never on `/files/...`, `/temp/...`, uploads, account info or
 * `/_sandbox/...`. taskFailureRate and earlyExpiryRate are drawn per accepted task whatever `applyTo`
 * says; bodyRefusalRate acts on creates only; the plan settings (planRefusedTaskTypes, uploadRefused)
 * ignore `applyTo`.
 *
 * Webhooks: on completed or failed, POST `{timestamp, data}` (data in form A) with
 * `x-webhook-secret`, retried on non-2xx, error or 5 s timeout after webhookBackoffMs, doubling.
 *
 * Control paths (loopback only; no key unless `controlAccess: 'api-key'`, none with `'off'`):
 * `GET /_sandbox/ledger` -> `{entries}` (each LedgerEntry without the key, webhook secrets hidden,
 * strings over 256 characters such as images cut to a summary; `ledger()` in code keeps all),
 * `GET /_sandbox/faults` -> `{faults}`, `PUT /_sandbox/faults` with a FaultOptions body.
 *
 * Exposure (options.ts): a developer's sandbox is open by default; the app's built-in sandbox
 * runs with `controlAccess: 'api-key'`, `outbound: 'loopback-only'` (image and audio inputs fetched
 * only from its own URLs, no webhooks; others a 400 naming the field, or for a
 * source song a failed task) and `crossSite: 'refuse'` (403 to a request whose Origin is not its
 * own or whose Sec-Fetch-Site is another site).
 */

export { HOSTED_POINTS_PER_MICRO } from './hosted-record.ts';
export type { LedgerView } from './ledger-view.ts';
/** Deterministic randomness for workloads that must repeat exactly (benchmarks, tests). */
export { seededRandom } from './media/index.ts';
export type {
  AnswerProfile,
  ControlAccess,
  FaultOptions,
  LedgerEntry,
  OutboundMode,
  Sandbox,
  SandboxOptions,
  WebhookDelivery,
} from './options.ts';
export { parseSandboxArgs, runSandboxCommand, SANDBOX_USAGE, SandboxUsageError } from './sandbox-command.ts';
export { startSandbox } from './start-sandbox.ts';
export { type StageDurations, stageDurations } from './task-timing.ts';
