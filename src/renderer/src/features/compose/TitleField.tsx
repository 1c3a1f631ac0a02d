/** The task's title (optional; the library names it from the prompt when empty), one per tab. */
import { TextField } from '../../components/TextField.tsx';
import { useCompose } from '../../state/compose-state.ts';

export function TitleField() {
  const title = useCompose((s) => s.common[s.tab].title);
  const error = useCompose((s) => s.errors[s.tab].title);
  const setCommon = useCompose((s) => s.setCommon);
  return (
    <div className="title-field">
      <TextField
        label="Title"
        field="title"
        optional
        value={title}
        placeholder="Named from the prompt when empty"
        error={error}
        onChange={(value) => setCommon({ title: value.slice(0, 200) })}
      />
    </div>
  );
}
