/**
 * The Song tab (txt2audio): style, negative prompt, lyrics, duration and a reference audio; with
 * "One song per part", lyrics split at lines holding only `---` queue one song each as a batch; with
 * "One task per line", each line of the style prompt is a song of its own (the lyrics go with each).
 */
import { useId, useRef } from 'react';
import { LIMITS } from '../../../../shared/index.ts';
import { countWord } from '../../../../shared/task/task-count-words.ts';
import { MediaSlot } from '../../components/MediaSlot.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useFocusRequest } from '../../hooks/useFocusRequest.ts';
import { useCompose } from '../../state/compose-state.ts';
import { lyricsParts } from './compose-batch.ts';
import { DurationField } from './DurationField.tsx';
import { catalogField } from './hand-made-words.ts';
import { LyricsEditor } from './LyricsEditor.tsx';
import { PromptLinesToggle } from './PromptLinesToggle.tsx';
import { toggleStyle } from './prompt-edits.ts';
import { StyleChips } from './StyleChips.tsx';
import { fieldMessage, useFormProblems } from './use-form-problems.ts';
import '../../styles/batches.css';

/** The batch switch: one song per part of the lyrics, and how many parts there are now. */
function SplitToggle({ lyrics }: { lyrics: string }) {
  const id = useId();
  const split = useCompose((s) => s.batch.songSplit);
  const setSongSplit = useCompose((s) => s.setSongSplit);
  const parts = split ? lyricsParts(lyrics).length : 0;
  return (
    <div className="song-split" data-testid="song-split">
      <label className="checkbox-line">
        <input
          type="checkbox"
          checked={split}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setSongSplit(event.target.checked)}
        />
        <span>One song per part</span>
      </label>
      <span id={`${id}-hint`} className="field-hint" data-testid="song-parts">
        {split
          ? `A line holding only --- ends a part: ${countWord(parts, 'song')}, same style, queued as one batch.`
          : 'Batch: split the lyrics at lines holding only --- and queue one song per part.'}
      </span>
    </div>
  );
}

/** The song's fields in the catalog's words (ace-step's txt2audio). */
const SONG = 'ace-step/txt2audio';
const STYLE = catalogField(SONG, 'style_prompt');
const NEGATIVE = catalogField(SONG, 'negative_prompt');
const LYRICS = catalogField(SONG, 'lyrics');
const DURATION = catalogField(SONG, 'duration');
const REFERENCE = catalogField(SONG, 'style_audio');

export function SongForm() {
  const song = useCompose((s) => s.song);
  const errors = useCompose((s) => s.errors.song);
  const setSong = useCompose((s) => s.setSong);
  const { shown } = useFormProblems('song');
  const message = (field: string) => fieldMessage(errors, shown, field);
  const promptRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useFocusRequest('style-prompt', promptRef);

  return (
    <div className="form-grid">
      <div className="form-main">
        <TextField
          label={STYLE.label}
          field="style_prompt"
          multiline
          rows={3}
          value={song.stylePrompt}
          max={STYLE.maxLength ?? LIMITS.promptMaxChars}
          placeholder="e.g. dreamy lo-fi, soft piano, vinyl crackle"
          hint={STYLE.help}
          error={message('style_prompt')}
          announceError={false}
          inputRef={promptRef}
          onChange={(stylePrompt) => setSong({ stylePrompt })}
        />
        <StyleChips
          prompt={song.stylePrompt}
          onToggle={(style) => setSong({ stylePrompt: toggleStyle(song.stylePrompt, style) })}
        />
        <PromptLinesToggle
          prompt={song.stylePrompt}
          offHint="Batch: each line of the style prompt becomes its own song, with the same lyrics. {lofi|surf} makes one song per word either way."
        />
        <TextField
          label={NEGATIVE.label}
          field="negative_prompt"
          optional
          value={song.negativePrompt}
          max={NEGATIVE.maxLength ?? LIMITS.promptMaxChars}
          placeholder="e.g. distortion"
          hint={NEGATIVE.help}
          error={message('negative_prompt')}
          announceError={false}
          onChange={(negativePrompt) => setSong({ negativePrompt })}
        />
        <LyricsEditor
          label={LYRICS.label}
          value={song.lyrics}
          error={message('lyrics')}
          onChange={(lyrics) => setSong({ lyrics })}
        />
        <SplitToggle lyrics={song.lyrics} />
      </div>
      <div className="form-side">
        <DurationField
          label={DURATION.label}
          value={song.duration}
          error={message('duration')}
          onChange={(duration) => setSong({ duration })}
        />
        <MediaSlot
          field="style_audio"
          optional
          description={`${REFERENCE.help ?? ''} Drop an audio file or give its web address.`}
          error={message('style_audio')}
        />
      </div>
    </div>
  );
}
