/** Checks that a RemoteTask has the declared types in every field (for property tests). */
import { expect } from 'vitest';
import { normaliseStatus, type RemoteTask } from '../../src/shared/service/index.ts';

const KINDS = ['audio', 'image', 'video', '3d', 'file'];
const FORMS = ['A', 'B', 'C', 'image-edit-create'];

function stringOrNull(value: unknown): void {
  expect(value === null || typeof value === 'string').toBe(true);
}

function finiteOrNull(value: unknown): void {
  expect(value === null || (typeof value === 'number' && Number.isFinite(value))).toBe(true);
}

function isoOrNull(value: unknown): void {
  stringOrNull(value);
  if (typeof value === 'string') expect(new Date(value).toISOString()).toBe(value);
}

export function expectRemoteTaskShape(task: RemoteTask): void {
  expect(typeof task.id).toBe('string');
  expect(task.id.length).toBeGreaterThan(0);
  stringOrNull(task.model);
  stringOrNull(task.taskType);
  expect(typeof task.status).toBe('string');
  expect(task.status).toBe(task.status.trim().toLowerCase());
  expect(task.status).toBe(normaliseStatus(task.serviceStatus));
  expect(task.serviceStatus).toBe(task.serviceStatus.trim().toLowerCase());
  const input = task.input;
  expect(
    input === null || typeof input === 'string' || (typeof input === 'object' && !Array.isArray(input)),
  ).toBe(true);
  expect(Array.isArray(task.outputs)).toBe(true);
  for (const out of task.outputs) {
    expect(KINDS).toContain(out.kind);
    expect(typeof out.url).toBe('string');
    expect(out.url.length).toBeGreaterThan(0);
    expect(typeof out.field).toBe('string');
  }
  if (task.usage !== null) {
    stringOrNull(task.usage.type);
    finiteOrNull(task.usage.frozen);
    finiteOrNull(task.usage.consume);
  }
  isoOrNull(task.createdAt);
  isoOrNull(task.startedAt);
  isoOrNull(task.endedAt);
  if (task.error !== null) {
    expect(typeof task.error.code).toBe('number');
    expect(typeof task.error.message).toBe('string');
    expect(typeof task.error.rawMessage).toBe('string');
  }
  expect(FORMS).toContain(task.form);
}
