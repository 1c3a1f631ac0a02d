/** The Song tab (txt2audio): style, negative prompt, lyrics, duration and a reference audio. */
import { useRef } from 'react';
import { LIMITS } from '../../../../shared/index.ts';
import { MediaSlot } from '../../components/MediaSlot.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useFocusRequest } from '../../hooks/useFocusRequest.ts';
import { useCompose } from '../../stores/compose-store.ts';
import { DurationField } from './DurationField.tsx';
import { LyricsEditor } from './LyricsEditor.tsx';
import { appendStyle } from './prompt-edits.ts';
import { StyleChips } from './StyleChips.tsx';

export function SongForm() {
  const song = useCompose((s) => s.song);
  const errors = useCompose((s) => s.errors.song);
  const setSong = useCompose((s) => s.setSong);
  const promptRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useFocusRequest('style-prompt', promptRef);

  return (
    <div className="form-grid">
      <div className="form-main">
        <TextField
          label="Style prompt"
          field="style_prompt"
          multiline
          rows={3}
          value={song.stylePrompt}
          max={LIMITS.promptMaxChars}
          placeholder="e.g. dreamy lo-fi, soft piano, vinyl crackle"
          hint="Describe the genre, instruments and mood (or give a reference audio)."
          error={errors.style_prompt}
          inputRef={promptRef}
          onChange={(stylePrompt) => setSong({ stylePrompt })}
        />
        <StyleChips onPick={(style) => setSong({ stylePrompt: appendStyle(song.stylePrompt, style) })} />
        <TextField
          label="Negative prompt"
          field="negative_prompt"
          optional
          value={song.negativePrompt}
          max={LIMITS.promptMaxChars}
          placeholder="What to avoid, e.g. distortion"
          error={errors.negative_prompt}
          onChange={(negativePrompt) => setSong({ negativePrompt })}
        />
        <LyricsEditor value={song.lyrics} error={errors.lyrics} onChange={(lyrics) => setSong({ lyrics })} />
      </div>
      <div className="form-side">
        <DurationField
          value={song.duration}
          error={errors.duration}
          onChange={(duration) => setSong({ duration })}
        />
        <MediaSlot
          field="style_audio"
          optional
          description="A song whose style to follow: drop an audio file or paste its URL."
          error={errors.style_audio}
        />
      </div>
    </div>
  );
}
