/** Whether a task of the service could be the create of an uncertain task (create-match.ts). */
import { describe, expect, it } from 'vitest';
import { couldBeCreateOf } from '../../src/core/engine/sending/create-match.ts';
import type { RemoteTask, Task } from '../../src/shared/index.ts';

const task = (input: Record<string, unknown>, inputs: Task['inputs'] = []) => ({
  model: 'Qubico/ace-step',
  taskType: 'txt2audio',
  request: { model: 'Qubico/ace-step', task_type: 'txt2audio', input },
  inputs,
});

const remote = (input: RemoteTask['input'], extra: Partial<RemoteTask> = {}): RemoteTask => ({
  id: 'r',
  model: 'Qubico/ace-step',
  taskType: 'txt2audio',
  status: 'pending',
  serviceStatus: 'pending',
  input,
  outputs: [],
  usage: null,
  createdAt: null,
  startedAt: null,
  endedAt: null,
  error: null,
  form: 'A',
  ...extra,
});

const fileInput = (field: string): Task['inputs'][number] => ({
  field,
  source: 'file',
  value: 'inputs/x.wav',
  mime: null,
  size: null,
  sha256: null,
  width: null,
  height: null,
});

describe('couldBeCreateOf', () => {
  const sent = { style_prompt: 'rain', duration: 10, negative_prompt: 'drums', lyrics: '' };

  it('tolerates fields the service adds or drops, its other name for the negative prompt, and numbers as text', () => {
    expect(
      couldBeCreateOf(
        task(sent),
        remote({ style_prompt: 'rain', duration: '10', negative_style_prompt: 'drums', style_audio: '' }),
      ),
    ).toBe(true);
    expect(couldBeCreateOf(task(sent), remote(JSON.stringify({ style_prompt: 'rain' })))).toBe(true);
    expect(couldBeCreateOf(task(sent), remote({ style_prompt: 'rain' }, { model: 'ace-step' }))).toBe(true);
  });

  it('refuses another value, model or task type, and a task without an echo to compare', () => {
    expect(couldBeCreateOf(task(sent), remote({ style_prompt: 'snow', duration: 10 }))).toBe(false);
    expect(couldBeCreateOf(task(sent), remote({ style_prompt: 'rain', duration: 12 }))).toBe(false);
    expect(couldBeCreateOf(task(sent), remote({ style_prompt: 'rain', negative_style_prompt: 'bass' }))).toBe(
      false,
    );
    expect(
      couldBeCreateOf(task(sent), remote({ style_prompt: 'rain' }, { model: 'Qubico/flux1-schnell' })),
    ).toBe(false);
    expect(couldBeCreateOf(task(sent), remote({ style_prompt: 'rain' }, { taskType: 'extend' }))).toBe(false);
    expect(couldBeCreateOf(task(sent), remote(null))).toBe(false);
    expect(couldBeCreateOf(task(sent), remote('not json'))).toBe(false);
    // nothing in common to compare: cannot be told from any other task
    expect(couldBeCreateOf(task(sent), remote({ other: 1 }))).toBe(false);
  });

  it('leaves media sent from the library (an upload address or Base64) out, and compares a URL input', () => {
    const withFile = task({ audio: '', style_prompt: 'x' }, [fileInput('audio')]);
    expect(
      couldBeCreateOf(withFile, remote({ audio: 'https://upload.example/a.wav', style_prompt: 'x' })),
    ).toBe(true);
    const withUrl = task({ audio: 'https://a.example/s.wav' }, [{ ...fileInput('audio'), source: 'url' }]);
    expect(couldBeCreateOf(withUrl, remote({ audio: 'https://a.example/s.wav' }))).toBe(true);
    expect(couldBeCreateOf(withUrl, remote({ audio: 'https://a.example/other.wav' }))).toBe(false);
  });
});
