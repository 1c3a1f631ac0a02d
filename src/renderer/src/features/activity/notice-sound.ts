/**
 * The optional notice sound: a short tone made with the Web Audio API (no sound file), a rising
 * pair of notes for a saved task, a falling pair for a failure, three notes when the queue is
 * done. One AudioContext, made on first use.
 */
export type NoticeTone = 'saved' | 'failed' | 'queue-done';

const NOTES: Record<NoticeTone, readonly number[]> = {
  saved: [660, 880],
  failed: [440, 330],
  'queue-done': [523, 659, 784],
};
const NOTE_S = 0.12;
const LOUDNESS = 0.15;

let context: AudioContext | null = null;

function audioContext(): AudioContext | null {
  try {
    context ??= new AudioContext();
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
    return context;
  } catch {
    return null; // no audio output: the notice still shows
  }
}

/** Plays the tone of a notice, each note faded in and out so it does not click. */
export function playNoticeTone(tone: NoticeTone): void {
  const ctx = audioContext();
  if (!ctx) return;
  const start = ctx.currentTime + 0.02;
  NOTES[tone].forEach((frequency, index) => {
    const at = start + index * NOTE_S;
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(LOUDNESS, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + NOTE_S - 0.01);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(at);
    oscillator.stop(at + NOTE_S);
  });
}
