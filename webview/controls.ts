/** The panel's form controls (vscode-elements): selects and text fields, each calling back when changed. */
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';

export type Field = HTMLElement & { value: string };

/** A single select: `options` are [value, label], the first the default; `onChange` runs on every change. */
export function choice(id: string, label: string, options: [string, string][], onChange: () => void): Field {
  const s = document.createElement('vscode-single-select') as unknown as Field;
  s.id = id;
  s.setAttribute('aria-label', label);
  for (const [value, text] of options) {
    const o = document.createElement('vscode-option');
    o.textContent = text;
    o.setAttribute('value', value);
    s.append(o);
  }
  s.addEventListener('change', () => onChange());
  return s;
}

/** A filter select: "Any <label>" (no filter) first, then each value. */
export function select(id: string, label: string, values: string[], onChange: () => void): Field {
  return choice(id, label, [['', `Any ${label.toLowerCase()}`], ...values.map((v): [string, string] => [v, v])], onChange);
}

/** A text field whose placeholder is its accessible name; `onInput` runs as it is typed in. */
export function textfield(id: string, placeholder: string, onInput: () => void): Field {
  const f = document.createElement('vscode-textfield') as unknown as Field;
  f.id = id;
  f.setAttribute('placeholder', placeholder);
  f.setAttribute('aria-label', placeholder);
  f.addEventListener('input', () => onInput());
  return f;
}

/** A secondary button that shows and hides a section of its own, asking for its content each time it opens. */
export function toggledSection(id: string, label: string, open: () => void): { button: HTMLElement; section: HTMLElement } {
  const button = document.createElement('vscode-button');
  button.id = id;
  button.setAttribute('secondary', '');
  button.textContent = label;
  const section = document.createElement('section');
  section.className = id;
  section.hidden = true;
  button.addEventListener('click', () => {
    section.hidden = !section.hidden;
    if (!section.hidden) open();
  });
  return { button, section };
}
