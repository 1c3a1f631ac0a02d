/**
 * What `media-task import-file` shows before anything is queued: the task a task.json would
 * queue, where each input comes from, the model, the price and the webhook it names.
 */
import { asOneLine, type TaskFilePreview, taskFileInputText } from '../shared/index.ts';

/**
 * The summary's lines for `preview`; `keepWebhook`: whether --keep-webhook was given. Each is one
 * line whatever the file holds: a title with line breaks cannot add a price or a webhook line.
 */
export function taskFileSummary(preview: TaskFilePreview, keepWebhook: boolean): string[] {
  const lines = [
    `${preview.file}: ${preview.taskLabel} “${preview.title}”`,
    ...(preview.recall ? [`  from: ${preview.recall.source}`] : []),
    `  model: ${preview.model} (task type ${preview.taskType})`,
    `  price: ${preview.priceMicros === null ? `${preview.priceText} (not known before it runs)` : preview.priceText}`,
  ];
  if (preview.boards.length > 0) lines.push(`  boards: ${preview.boards.join(', ')}`);
  if (preview.rerunOf) lines.push(`  re-run of: “${preview.rerunOf.title}” (${preview.rerunOf.id})`);
  for (const input of preview.inputs) lines.push(`  ${input.field}: ${taskFileInputText(input, preview)}`);
  const parameters = JSON.stringify(preview.parameters);
  lines.push(`  other input: ${parameters.length > 400 ? `${parameters.slice(0, 400)}…` : parameters}`);
  if (preview.webhook) {
    const secret = preview.webhook.hasSecret ? ' (with a secret)' : '';
    lines.push(
      `  webhook: ${preview.webhook.endpoint}${secret}: ${keepWebhook ? 'sent (--keep-webhook)' : 'not sent unless --keep-webhook is given'}`,
    );
  }
  return lines.map(asOneLine);
}

/** The fields that still need a file the user picks (`FIELD=FILE`), required ones only. */
export function fieldsNeedingFiles(preview: TaskFilePreview, picked: Record<string, string>): string[] {
  return preview.inputs
    .filter((i) => i.source === 'needs-file' && i.required && picked[i.field] === undefined)
    .map((i) => i.field);
}
