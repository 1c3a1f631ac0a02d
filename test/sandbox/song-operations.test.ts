/**
 * Extend, edit and audio2audio over real HTTP, in both answer profiles, with the built-in
 * sandbox's outbound policy (loopback-only): the output reflects the source song (extend keeps
 * the source's samples between the new parts; edit keeps its length; audio2audio follows the
 * style audio's length), and a source the sandbox cannot read fails the task with the real
 * service's words and the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerProfile, Sandbox } from '../../src/sandbox/index.ts';
import { normaliseTaskResponse } from '../../src/shared/index.ts';
import { readWavInfo } from '../support/wav-info.ts';
import { postJson, postTask, startTestSandbox, taskIdOf, waitForEnd, wavBytes } from './sandbox-http.ts';

const MODEL = 'Qubico/ace-step';

/** Interleaved 16-bit samples of a canonical WAV (44-byte header, as the sandbox writes). */
function samplesOf(wav: Buffer): Int16Array {
  expect(wav.toString('latin1', 36, 40)).toBe('data');
  const copy = Buffer.from(wav.subarray(44));
  return new Int16Array(copy.buffer, copy.byteOffset, copy.length / 2);
}

/** Whether two runs of samples are the same, sample for sample. */
function same(a: Int16Array, b: Int16Array): boolean {
  const bytes = (x: Int16Array) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);
  return bytes(a).equals(bytes(b));
}

function rms(samples: Int16Array, start = 0, end = samples.length): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += (samples[i]! / 32768) ** 2;
  return Math.sqrt(sum / Math.max(1, end - start));
}

describe.each<AnswerProfile>(['spec', 'hosted'])('song operations, %s profile', (profile) => {
  let sb: Sandbox;

  beforeAll(async () => {
    sb = await startTestSandbox({ profile, outbound: 'loopback-only', concurrencyLimit: 50 });
  });

  afterAll(async () => {
    await sb.stop();
  });

  /** Creates a task, waits for its end and gives the fetched record's data. */
  async function run(taskType: string, input: Record<string, unknown>) {
    const created = await postTask(sb, { model: MODEL, task_type: taskType, input });
    expect(created.status, created.text).toBe(200);
    const done = await waitForEnd(sb, taskIdOf(created));
    const normalised = normaliseTaskResponse(done.json);
    if (!normalised.ok) throw new Error(normalised.reason);
    return { data: done.json.data, task: normalised.task };
  }

  async function completedWav(taskType: string, input: Record<string, unknown>) {
    const { data, task } = await run(taskType, input);
    expect(task.status, JSON.stringify(data.error)).toBe('completed');
    if (profile === 'hosted') expect(data.meta.usage.type).toBe('llm');
    const url: string = data.output.audio_url;
    expect(url).toMatch(/\/audio\.wav$/);
    const res = await fetch(url);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    return { url, wav: Buffer.from(await res.arrayBuffer()) };
  }

  it('extend: the source song with new music before and after, its samples unchanged in the middle', async () => {
    const source = wavBytes(2);
    const { wav } = await completedWav('extend', {
      audio: source.toString('base64'),
      style_prompt: 'warm synth pop',
      lyrics: '[verse]\nand then it went on',
      left_extend_duration: 1,
      right_extend_duration: 1.5,
    });
    const info = readWavInfo(wav);
    expect(info).toMatchObject({ sampleRate: 22050, channels: 1, bitsPerSample: 16 });
    expect(info.durationSeconds).toBeCloseTo(2 + 1 + 1.5, 4);
    const out = samplesOf(wav);
    const src = samplesOf(source);
    expect(out.length).toBe(22050 + src.length + 33075);
    expect(same(out.subarray(22050, 22050 + src.length), src)).toBe(true);
    // the new parts carry sound of their own
    expect(rms(out, 0, 22050)).toBeGreaterThan(0.01);
    expect(rms(out, 22050 + src.length)).toBeGreaterThan(0.01);
  });

  it('extend takes the output URL of an earlier song and a stereo 44.1 kHz upload, keeping rate and channels', async () => {
    const first = await completedWav('txt2audio', { style_prompt: 'lofi piano', duration: 3 });
    const { wav } = await completedWav('extend', { audio: first.url, right_extend_duration: 2 });
    expect(readWavInfo(wav).durationSeconds).toBeCloseTo(5, 4);
    const src = samplesOf(first.wav);
    const out = samplesOf(wav);
    expect(out.length).toBe(src.length + 2 * 22050);
    expect(same(out.subarray(0, src.length), src)).toBe(true);

    const stereo = wavBytes(1.25, 44100, 2);
    const uploaded = await postJson(sb, '/api/ephemeral_resource', {
      file_name: 'take.wav',
      file_data: stereo.toString('base64'),
    });
    expect(uploaded.status, uploaded.text).toBe(200);
    const extended = await completedWav('extend', {
      audio: uploaded.json.data.url,
      left_extend_duration: 0.5,
      right_extend_duration: 0,
    });
    expect(readWavInfo(extended.wav)).toMatchObject({ sampleRate: 44100, channels: 2 });
    // 0.5 s of two channels before the source
    expect(same(samplesOf(extended.wav).subarray(22050 * 2), samplesOf(stereo))).toBe(true);
  });

  it('edit: a new song of exactly the source length in the edited style', async () => {
    const source = wavBytes(2.5, 44100);
    const { wav } = await completedWav('edit', {
      audio: `data:audio/wav;base64,${source.toString('base64')}`,
      style_prompt: 'piano ballad',
      lyrics: '[verse]\nold words',
      edit_style_prompt: 'heavy rock',
      edit_lyrics: '[verse]\nnew words',
    });
    const info = readWavInfo(wav);
    expect(info.sampleRate).toBe(44100);
    expect(info.durationSeconds).toBe(2.5);
    expect(rms(samplesOf(wav))).toBeGreaterThan(0.05);
    expect(wav.equals(source)).toBe(false);
  });

  it('audio2audio: as long as the style audio, or as duration when given', async () => {
    const style = wavBytes(3.5).toString('base64');
    const follows = await completedWav('audio2audio', { style_audio: style, style_prompt: 'jazz trio' });
    expect(readWavInfo(follows.wav).durationSeconds).toBe(3.5);
    const given = await completedWav('audio2audio', {
      style_audio: style,
      style_prompt: 'jazz trio',
      duration: 2,
    });
    expect(readWavInfo(given.wav).durationSeconds).toBe(2);
    const otherStyle = await completedWav('audio2audio', {
      style_audio: style,
      style_prompt: 'marching band',
    });
    expect(otherStyle.wav.equals(follows.wav)).toBe(false);
  });

  it('fails an extend of an MP3 source with the real words and the reason, charging nothing', async () => {
    // MPEG-1 layer III frames (128 kbit/s, 44.1 kHz) of silence, after an ID3 tag
    const frame = Buffer.alloc(417);
    frame.set([0xff, 0xfb, 0x90, 0x64]);
    const mp3 = Buffer.concat([
      Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'),
      frame,
      frame,
      frame,
    ]);
    const { data, task } = await run('extend', { audio: mp3.toString('base64'), right_extend_duration: 10 });
    expect(task.status).toBe('failed');
    expect(data.output).toBeNull();
    expect(data.error.message).toBe(
      'failed to get input audio: input.audio is MP3, not WAV; the demo sandbox reads WAV audio only (its own song results are WAV; the real service also takes MP3)',
    );
    expect(task.error?.message).toMatch(/^failed to get input audio: input\.audio is MP3/);
    expect(data.meta.usage.consume).toBe(0);
  });

  it('fails a source it cannot download (an unknown file, a foreign URL) with failed to get input audio', async () => {
    const missing = await run('edit', {
      audio: `${sb.url}/files/00000000-0000-4000-8000-000000000000/audio.wav`,
    });
    expect(missing.task.status).toBe('failed');
    expect(missing.data.error.message).toBe(
      'failed to get input audio: input.audio could not be downloaded: the file could not be fetched',
    );
    const foreign = await run('extend', { audio: 'https://example.com/song.wav', right_extend_duration: 5 });
    expect(foreign.data.error.message).toBe(
      'failed to get input audio: input.audio could not be downloaded: the demo sandbox fetches only its own files (uploads and results)',
    );
  });
});
