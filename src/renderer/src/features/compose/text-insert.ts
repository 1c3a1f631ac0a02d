/**
 * Editing a text field as if the user typed: through the browser's editing command, so the
 * change joins the field's own undo history (Ctrl/Cmd+Z takes it back) and fires `input` (React
 * sees it as typing). Where the command is unavailable, `setRangeText` and an `input` event do
 * the same edit without the undo step.
 */
export function replaceRange(
  field: HTMLTextAreaElement | HTMLInputElement,
  start: number,
  end: number,
  text: string,
  caret: number = start + text.length,
  selectionEnd: number = caret,
): void {
  field.focus();
  field.setSelectionRange(start, end);
  const command = text === '' ? 'delete' : 'insertText';
  const done = start === end && text === '' ? true : document.execCommand(command, false, text);
  if (!done) {
    field.setRangeText(text, start, end, 'end');
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
  field.setSelectionRange(caret, selectionEnd);
}
