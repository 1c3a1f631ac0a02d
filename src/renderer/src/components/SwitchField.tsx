/** An on/off setting: a checkbox with role=switch, its label beside it and a hint under it. */
import { useId } from 'react';

export function SwitchField({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange(on: boolean): void;
}) {
  const id = useId();
  return (
    <>
      <div className="switch-row">
        <input
          id={id}
          type="checkbox"
          role="switch"
          className="switch"
          checked={checked}
          aria-checked={checked}
          aria-describedby={`${id}-hint`}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
    </>
  );
}
